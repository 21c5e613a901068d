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
 * A reversal's message, in M-PESA's words: the original transaction (`reverses`, its receipt) has
 * been reversed, and the amount is credited to the wallet, or taken back from it.
 */
function reversalText(transaction, amount, date, time, credited) {
  const way = credited ? 'credited to' : 'debited from';
  return `${transaction.receipt} Confirmed. Transaction ${transaction.reverses} has been reversed. ${amount} is ${way} your M-PESA account on ${date} at ${time}.`;
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
  const reversal = transaction.kind === 'reversal';
  if (to && (!phone || to === phone)) {
    return {
      msisdn: to,
      text: reversal
        ? reversalText(transaction, amount, date, time, true)
        : `${transaction.receipt} Confirmed. You have received ${amount} from ${transaction.debitName ?? transaction.debit.shortcode} on ${date} at ${time}.`,
    };
  }
  if (from && reversal && (!phone || from === phone)) {
    return { msisdn: from, text: reversalText(transaction, amount, date, time, false) };
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
