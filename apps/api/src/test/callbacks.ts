/** Daraja result callbacks for a given CheckoutRequestID, shaped like the shared fixtures. */
export function successCallback(
  checkoutRequestId: string,
  {
    amount,
    phoneNumber,
    receipt = 'UF1E26WQJZ',
  }: { amount: number; phoneNumber: string; receipt?: string },
) {
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: '8fc3-415b-ba79-04f852fc58507383726',
        CheckoutRequestID: checkoutRequestId,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        CallbackMetadata: {
          Item: [
            { Name: 'Amount', Value: amount },
            { Name: 'MpesaReceiptNumber', Value: receipt },
            { Name: 'Balance' },
            { Name: 'TransactionDate', Value: 20260614193604 },
            { Name: 'PhoneNumber', Value: Number(phoneNumber) },
          ],
        },
      },
    },
  };
}

export function failureCallback(
  checkoutRequestId: string,
  resultCode: number | string,
  resultDesc: string,
) {
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: 'f1e2-4b95-a71d-b30d3cdbb7a7942864',
        CheckoutRequestID: checkoutRequestId,
        ResultCode: resultCode,
        ResultDesc: resultDesc,
      },
    },
  };
}
