import type { CheckResponse } from '@mpesa/shared/contract-check';
import { apiRequest } from '../../../lib/api-client';

/**
 * "I have paid": asks the API to ask M-PESA now about a pending payment
 * (POST /api/mpesa/transactions/:id/check); answered with the payment and what M-PESA said.
 */
export function checkPayment(id: string): Promise<CheckResponse> {
  return apiRequest<CheckResponse>(`/mpesa/transactions/${encodeURIComponent(id)}/check`, {
    method: 'POST',
    // A JSON body, as every request this client sends says it carries one.
    body: {},
  });
}
