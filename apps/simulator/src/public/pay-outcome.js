// What the virtual phone's M-PESA menu tells the payer about a payment it sent with
// POST /_sim/c2b/pay: the route's refusal, or the payment as it stands (the route's answer, then
// its changes from the event stream's `c2b` events). The simulator's own wording is for developers
// ("The wallet of 254… holds KES 0.00: KES 10.00 is needed."); the payer reads a sentence of
// M-PESA's kind. M-PESA's message for a payment made is not here: money-sms.js writes it.

/** How far each stage is along (operations/c2b/c2b-kept.ts): the later view of a payment wins. */
const STAGE_ORDER = { validating: 0, confirming: 1, completed: 2, cancelled: 2, failed: 2 };

/** The later of two views of one payment (either may be undefined). */
export function later(a, b) {
  if (!a || !b) return a ?? b;
  return STAGE_ORDER[b.stage] > STAGE_ORDER[a.stage] ? b : a;
}

/**
 * The merchant's validation codes (docs/daraja-protocol.md §M3.4), which Daraja says choose the
 * customer's message: what each tells the payer, given the payee and the account number.
 */
const MERCHANT_SAYS = {
  C2B00011: (payee) => `${payee} does not take payments from your number.`,
  C2B00012: (payee, account) => `${payee} did not accept account number ${account}.`,
  C2B00013: (payee) => `${payee} did not accept that amount.`,
  C2B00014: (payee) => `${payee} could not confirm your details.`,
  C2B00015: (payee) => `${payee} is not the right number to pay.`,
};

/** `business 600984` (a paybill) or `till 123456` (Buy Goods), as the payer typed it. */
export function payeeOf(payment) {
  const till = payment.commandId === 'CustomerBuyGoodsOnline';
  return `${till ? 'till' : 'business'} ${payment.shortcode}`;
}

function why(payment) {
  const payee = payeeOf(payment);
  const Payee = payee[0].toUpperCase() + payee.slice(1);
  const { decidedBy, resultCode } = payment.validation;
  if (payment.stage === 'failed') {
    // A payment fails before anything is sent only when the wallet cannot pay it (payments.ts):
    // its balance is too low, or it has paid M-PESA's daily limit (the ledger's refusals, §M12).
    return /daily limit/.test(payment.reason ?? '')
      ? 'It would take you past your daily M-PESA limit.'
      : 'You do not have enough money in M-PESA.';
  }
  if (decidedBy === 'merchant') {
    return MERCHANT_SAYS[resultCode]?.(Payee, payment.billRefNumber) ?? `${Payee} declined it.`;
  }
  return `${Payee} did not answer in time, so M-PESA cancelled it.`;
}

/**
 * The payment as the payer sees it: `waiting` for the merchant's answer, `paid`, or `refused`,
 * with the sentence to show. `money` writes shillings as the phone does (`Ksh10.00`).
 */
export function paymentOutcome(payment, money) {
  const amount = money(payment.amount / 100);
  const payee = payeeOf(payment);
  if (payment.stage === 'validating') {
    return { kind: 'waiting', text: `Sent. Waiting for ${payee} to accept ${amount}…` };
  }
  if (payment.stage === 'confirming' || payment.stage === 'completed') {
    const account = payment.billRefNumber ? ` for account ${payment.billRefNumber}` : '';
    return {
      kind: 'paid',
      text: `Paid ${amount} to ${payee}${account}. M-PESA's message is in Messages.`,
    };
  }
  return {
    kind: 'refused',
    text: `Failed: ${amount} to ${payee} was not paid. ${why(payment)}`,
    detail: payment.reason,
  };
}

/**
 * A refusal of the route itself (400, `{error}`): a wrong PIN (`pinWrong`, so that the phone asks
 * for it again), or a field the phone's own checks let through.
 */
export function routeRefusal(body) {
  const error = typeof body?.error === 'string' ? body.error : '';
  if (/^Wrong PIN/.test(error)) {
    return { kind: 'refused', pinWrong: true, text: 'Wrong PIN: nothing was paid. Try again.' };
  }
  return {
    kind: 'refused',
    text: 'M-PESA could not send this: nothing was paid.',
    detail: error || undefined,
  };
}
