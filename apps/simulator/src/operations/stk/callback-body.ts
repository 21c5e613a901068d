/** STK's result callback (docs/daraja-protocol.md §4.1). */
import { eatNumber } from '../../ids.ts';
import type { Prompt } from './prompt.ts';

/** The callback body exactly as §4.1 shows it: metadata on success only, Balance with no Value. */
export function callbackBody(prompt: Prompt): unknown {
  const stkCallback: Record<string, unknown> = {
    MerchantRequestID: prompt.merchantRequestId,
    CheckoutRequestID: prompt.checkoutRequestId,
    ResultCode: /^\d+$/.test(prompt.resultCode ?? '')
      ? Number(prompt.resultCode)
      : prompt.resultCode,
    ResultDesc: prompt.resultDesc,
  };
  if (prompt.resultCode === '0') {
    stkCallback.CallbackMetadata = {
      Item: [
        { Name: 'Amount', Value: prompt.amount },
        { Name: 'MpesaReceiptNumber', Value: prompt.receiptNumber },
        { Name: 'Balance' },
        { Name: 'TransactionDate', Value: eatNumber(new Date(prompt.completedAt ?? Date.now())) },
        { Name: 'PhoneNumber', Value: Number(prompt.phoneNumber) },
      ],
    };
  }
  return { Body: { stkCallback } };
}
