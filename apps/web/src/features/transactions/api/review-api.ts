import type { ReviewBody } from '@mpesa/shared/contract-admin';
import type { TransactionResponse } from '@mpesa/shared/contract';
import { apiRequest } from '../../../lib/api-client';
import { csrfHeaders } from '../../auth/api/auth-api';

/**
 * An owner's review of a flagged payment, or of one whose outcome M-PESA never gave: the note
 * says why, and `status` settles an unknown outcome from the M-PESA statement. Sent with the CSRF
 * token, as every change a signed-in operator makes.
 */
export async function reviewPayment(id: string, body: ReviewBody) {
  const answer = await apiRequest<TransactionResponse>(
    `/mpesa/transactions/${encodeURIComponent(id)}/review`,
    { method: 'POST', body, headers: await csrfHeaders() },
  );
  return answer.data;
}
