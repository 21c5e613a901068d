import { useMutation } from '@tanstack/react-query';
import type { InitiatePaymentInput, InitiatePaymentResponse } from '@mpesa/shared/contract';
import { apiRequest, newIdempotencyKey } from '../../../lib/api-client';

/** The form's fields as typed: the amount is the input's text, as the specification's client sends it. */
export interface PaymentRequest {
  phoneNumber: string;
  amount: string;
  reference: string;
  description: string;
}

export function initiatePayment(request: PaymentRequest): Promise<InitiatePaymentResponse> {
  const body: InitiatePaymentInput = request;
  return apiRequest<InitiatePaymentResponse>('/mpesa/stkpush', {
    method: 'POST',
    body,
    // A new key per submission: a retried request is answered once and prompts the phone once.
    headers: { 'Idempotency-Key': newIdempotencyKey() },
  });
}

export function useInitiatePayment() {
  return useMutation({ mutationFn: initiatePayment });
}
