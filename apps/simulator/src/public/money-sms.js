// The customer's M-PESA message for money the APIs after STK push moved (the ledger's
// transactions, from the event stream): a B2C payout received, a paybill or till paid from the
// phone's menu or by C2B simulate, a reversal. STK push's messages come from its prompts.

function when(at) {
  const date = new Date(at);
  return {
    date: date.toLocaleDateString('en-GB', { day: 'numeric', month: 'numeric', year: '2-digit' }),
    time: date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }),
  };
}

/**
 * The message `phone` (12 digits) got for `transaction`, or null when it concerns another number
 * (every number when `phone` is '').
 */
export function smsForTransaction(transaction, phone, money) {
  const to = transaction.credit.msisdn;
  const from = transaction.debit.msisdn;
  const { date, time } = when(transaction.at);
  const amount = money(transaction.amount);
  if (to && (!phone || to === phone)) {
    const what = transaction.kind === 'reversal' ? 'reversed to you' : 'received';
    return {
      msisdn: to,
      text: `${transaction.receipt} Confirmed. You have ${what} ${amount} from ${transaction.debitName ?? transaction.debit.shortcode} on ${date} at ${time}.`,
    };
  }
  if (from && (!phone || from === phone)) {
    const account = transaction.reference ? ` for account ${transaction.reference}` : '';
    return {
      msisdn: from,
      text: `${transaction.receipt} Confirmed. ${amount} sent to ${transaction.creditName ?? transaction.credit.shortcode}${account} on ${date} at ${time}. Transaction cost, ${money(transaction.charges)}.`,
    };
  }
  return null;
}
