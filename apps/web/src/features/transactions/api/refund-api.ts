import type { Refund, RefundRequest } from '@mpesa/shared/contract';
import { apiRequest } from '../../../lib/api-client';
import { csrfHeaders } from '../../auth/api/auth-api';

/**
 * An owner's refund of a payment (POST /api/mpesa/transactions/:id/refund): the reason, and the
 * amount the owner confirmed (the payment's whole amount). Sent with the CSRF token, as every
 * change a signed-in operator makes. The API sends one reversal per payment however often this is
 * asked; the screen sends it once per confirmation.
 */
export async function refundPayment(id: string, body: RefundRequest): Promise<Refund> {
  const answer = await apiRequest<{ data: Refund }>(
    `/mpesa/transactions/${encodeURIComponent(id)}/refund`,
    { method: 'POST', body, headers: await csrfHeaders() },
  );
  return answer.data;
}
