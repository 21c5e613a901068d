import { useState } from 'react';
import type { InitiatePaymentInput, InitiatePaymentResponse } from '@mpesa/shared/contract';
import { apiRequest } from '../../../lib/api-client';

/** The form's fields as typed: the amount is the input's text, as the specification's client sends it. */
export interface PaymentRequest {
  phoneNumber: string;
  amount: string;
  reference: string;
  description: string;
}

/**
 * How long a payment request waits for the API's answer: longer than the API waits for M-PESA
 * (DARAJA_TIMEOUT_MS, 15 s by default), so that a slow M-PESA is told as the API tells it.
 */
export const PAYMENT_TIMEOUT_MS = 20_000;

/**
 * Sends one payment request under `idempotencyKey`: the same key with the same details is
 * answered once and prompts the phone once, however often it is sent.
 */
export function initiatePayment({
  request,
  idempotencyKey,
}: {
  request: PaymentRequest;
  idempotencyKey: string;
}): Promise<InitiatePaymentResponse> {
  const body: InitiatePaymentInput = request;
  return apiRequest<InitiatePaymentResponse>('/mpesa/stkpush', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    timeoutMs: PAYMENT_TIMEOUT_MS,
  });
}

/**
 * Sends a payment request at once, or fails at once: never held to be sent later. (TanStack
 * Query's mutations hold a request while the browser says it is offline and send it when the
 * network comes back, long after the payer gave up; and what they add is not needed here, where
 * nothing is cached: 1 kB of the first screen's download.)
 */
export function useInitiatePayment() {
  const [isPending, setPending] = useState(false);
  async function send(variables: Parameters<typeof initiatePayment>[0]) {
    setPending(true);
    try {
      return await initiatePayment(variables);
    } finally {
      setPending(false);
    }
  }
  return { isPending, send };
}
