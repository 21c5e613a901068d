// The virtual phone's M-PESA menu, as Safaricom's SIM menu has it: Lipa na M-PESA, then Pay Bill
// (business number, account number, amount, PIN) or Buy Goods and Services (till number, amount,
// PIN). It pays from the number the phone watches through POST /_sim/c2b/pay, the path Daraja's
// C2B simulate takes (validation, confirmation, the ledger); pay-outcome.js words what follows, in
// the live region #pay-status. Plain browser JavaScript, like phone.js.
import { later, paymentOutcome, routeRefusal } from './pay-outcome.js';

const $ = (id) => document.getElementById(id);

/**
 * Each field's check, the route's own limits (operations/c2b/c2b.control.ts) checked here first so
 * that the field at fault says what is wrong: true, or the sentence to show.
 */
const CHECKS = [
  [
    'pay-shortcode',
    (value, till) =>
      /^\d{5,7}$/.test(value) || `Enter the ${till ? 'till' : 'business'} number: 5 to 7 digits.`,
  ],
  [
    'pay-account',
    (value, till) =>
      till ||
      (value.length > 0 && value.length <= 20) ||
      'Enter the account number (up to 20 characters).',
  ],
  [
    'pay-amount',
    (value) =>
      (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 250_000) ||
      'Enter the amount in whole shillings, from 1 to 250,000.',
  ],
  ['pay-pin', (value) => /^\d{4,6}$/.test(value) || 'Enter your M-PESA PIN (4 to 6 digits).'],
];

/**
 * The one menu on the page: which form is open, the payment awaited (its TransID, 'sending' before
 * the route answers), the latest view of each recent payment, and what startPayMenu was given.
 */
const menu = {
  till: false,
  pending: null,
  payments: new Map(),
  phone: () => '',
  money: String,
  national: String,
};

function say(outcome) {
  const detail = outcome.detail ? ` (Simulator: ${outcome.detail})` : '';
  $('pay-status').textContent = `${outcome.text}${detail}`;
  $('pay-status').className = `pay-status pay-${outcome.kind}`;
}

/** Shows what the watched number allows: the menu pays from it, so without one it cannot. */
function refresh() {
  const number = menu.phone();
  $('menu-needs-number').hidden = Boolean(number);
  $('menu-choices').hidden = !number || !$('pay-form').hidden;
  if (!number) $('pay-form').hidden = true;
  $('pay-from').textContent = number ? `From ${menu.national(number)}` : '';
}

function open() {
  $('menu').hidden = false;
  $('menu-open').setAttribute('aria-expanded', 'true');
  showChoices();
}

function close() {
  $('menu').hidden = true;
  $('menu-open').setAttribute('aria-expanded', 'false');
  $('menu-open').focus();
}

function showChoices() {
  $('pay-form').hidden = true;
  refresh();
  (menu.phone() ? $('menu-paybill') : $('menu-title')).focus();
}

function showForm(till) {
  menu.till = till;
  $('pay-form').reset();
  $('pay-title').textContent = till ? 'Buy Goods and Services' : 'Pay Bill';
  $('pay-shortcode-label').textContent = till ? 'Till number' : 'Business number';
  $('pay-account-field').hidden = till;
  showError(null);
  $('menu-choices').hidden = true;
  $('pay-form').hidden = false;
  $('pay-shortcode').focus();
}

/** Marks one field wrong with its sentence (or none, with null), and moves focus to it. */
function showError(fault) {
  for (const [id] of CHECKS) {
    $(id).removeAttribute('aria-invalid');
    $(id).removeAttribute('aria-describedby');
  }
  $('pay-error').textContent = fault?.text ?? '';
  if (!fault) return;
  // The sentence goes right under the field it is about, where the eye and a magnifier are.
  $(fault.id).after($('pay-error'));
  $(fault.id).setAttribute('aria-invalid', 'true');
  $(fault.id).setAttribute('aria-describedby', 'pay-error');
  $(fault.id).focus();
}

function firstFault(values) {
  for (const [id, check] of CHECKS) {
    const verdict = check(values[id], menu.till);
    if (verdict !== true) return { id, text: verdict };
  }
  return null;
}

/**
 * Tells the payer how it stands, in the live region. Once paid the menu closes and focus goes back
 * to its button, as a phone goes back home; a wrong PIN is asked for again; any other refusal
 * leaves the form as it was, to change and send again.
 */
function settle(outcome) {
  say(outcome);
  if (outcome.kind === 'waiting') return;
  menu.pending = null;
  $('pay-send').removeAttribute('aria-disabled');
  if (outcome.kind === 'paid') {
    $('pay-form').reset();
    close();
  } else if (outcome.pinWrong) {
    $('pay-pin').value = '';
    $('pay-pin').focus();
  }
}

async function send(values) {
  menu.pending = 'sending';
  // aria-disabled rather than disabled: the button keeps focus while the payment goes.
  $('pay-send').setAttribute('aria-disabled', 'true');
  say({ kind: 'waiting', text: 'Sending…' });
  const body = {
    msisdn: menu.phone(),
    shortcode: values['pay-shortcode'],
    ...(!menu.till && { account: values['pay-account'] }),
    amount: Number(values['pay-amount']),
    pin: values['pay-pin'],
  };
  try {
    const response = await fetch('/_sim/c2b/pay', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) return settle(routeRefusal(answer));
    menu.pending = answer.transId;
    // The event stream may have told a later stage before the route's answer arrived.
    settle(paymentOutcome(later(answer, menu.payments.get(answer.transId)), menu.money));
  } catch {
    settle({ kind: 'refused', text: 'The simulator did not answer: nothing was paid.' });
  }
}

function onSubmit(event) {
  event.preventDefault();
  if (menu.pending) return;
  const values = Object.fromEntries(CHECKS.map(([id]) => [id, $(id).value.trim()]));
  const fault = firstFault(values);
  showError(fault);
  if (!fault) void send(values);
}

/** A C2B payment as the event stream tells it (`c2b` events, and `hello`'s `c2bPayments`). */
function paymentChanged(payment) {
  const known = later(menu.payments.get(payment.transId), payment);
  menu.payments.set(payment.transId, known);
  if (menu.payments.size > 50) menu.payments.delete(menu.payments.keys().next().value);
  if (menu.pending === payment.transId) settle(paymentOutcome(known, menu.money));
}

/** POST /_sim/reset: a payment awaited is gone, and will never say how it ended. */
function reset() {
  menu.payments.clear();
  menu.pending = null;
  $('pay-send').removeAttribute('aria-disabled');
}

/**
 * Starts the menu. `phone()` is the watched number (12 digits, '' for all numbers); `money` and
 * `national` write amounts and numbers as the phone does. The phone passes each C2B payment the
 * event stream tells (`paymentChanged`), calls `refresh` when the watched number changes and
 * `reset` when the simulator is reset.
 */
export function startPayMenu({ phone, money, national }) {
  Object.assign(menu, { phone, money, national });
  $('menu-open').addEventListener('click', () => ($('menu').hidden ? open() : close()));
  $('menu-exit').addEventListener('click', close);
  $('menu-paybill').addEventListener('click', () => showForm(false));
  $('menu-till').addEventListener('click', () => showForm(true));
  $('pay-back').addEventListener('click', showChoices);
  $('pay-form').addEventListener('submit', onSubmit);
  $('menu').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  return { refresh, paymentChanged, reset };
}
