// The virtual phone and the live request log. Plain browser JavaScript: no build step, no inline
// script, and every piece of text from the network goes in through textContent. The log's view is
// log.js.
import { renderLogEntries } from './log.js';
import { smsForTransaction } from './money-sms.js';
import { startPayMenu } from './pay-menu.js';
import { renderWebhooks } from './webhooks.js';

const $ = (id) => document.getElementById(id);

const state = {
  // ?phone= in any national or international form (also what the form sends before this script runs).
  phone: normalise(new URLSearchParams(location.search).get('phone') ?? ''),
  prompts: new Map(),
  // The ledger's transactions after STK push's own (money-sms.js), newest first.
  transactions: [],
  log: [],
  // The development receiver's webhooks (webhooks.js), newest first.
  webhooks: [],
  info: null,
  source: null,
};

/** 0712345678 / +254712345678 / 712345678 → 254712345678, or '' for anything else. */
function normalise(input) {
  const compact = input.replace(/[\s-]/g, '').replace(/^\+/, '');
  if (/^0[17]\d{8}$/.test(compact)) return `254${compact.slice(1)}`;
  if (/^[17]\d{8}$/.test(compact)) return `254${compact}`;
  if (/^254[17]\d{8}$/.test(compact)) return compact;
  return '';
}

function national(msisdn) {
  return msisdn.startsWith('254') ? `0${msisdn.slice(3)}` : msisdn;
}

function money(amount) {
  return `Ksh${Number(amount).toLocaleString('en-KE', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function watched(prompt) {
  return !state.phone || prompt.phoneNumber === state.phone;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.ok ? response.json().catch(() => null) : null;
}

// ---- live updates ------------------------------------------------------------------------------

/** Connects while the page is visible: a visible phone page counts as a person watching. */
function connect() {
  state.source?.close();
  state.source = null;
  if (document.visibilityState !== 'visible') return;
  const params = new URLSearchParams({ watch: '1' });
  if (state.phone) params.set('phone', state.phone);
  const source = new EventSource(`/_sim/events?${params}`);
  source.addEventListener('hello', (event) => {
    const data = JSON.parse(event.data);
    state.prompts = new Map(data.prompts.map((prompt) => [prompt.checkoutRequestId, prompt]));
    state.transactions = data.transactions ?? [];
    state.log = data.log;
    state.webhooks = data.webhooks ?? [];
    for (const payment of [...(data.c2bPayments ?? [])].reverse()) payMenu.paymentChanged(payment);
    render();
  });
  source.addEventListener('prompt', (event) => {
    const { prompt } = JSON.parse(event.data);
    state.prompts.set(prompt.checkoutRequestId, prompt);
    renderPhone();
  });
  source.addEventListener('transaction', (event) => {
    const transaction = JSON.parse(event.data);
    if (transaction.kind === 'stk') return;
    state.transactions.unshift(transaction);
    state.transactions.length = Math.min(state.transactions.length, 50);
    renderPhone();
  });
  source.addEventListener('c2b', (event) => {
    const { payment } = JSON.parse(event.data);
    if (payment) payMenu.paymentChanged(payment);
  });
  source.addEventListener('log', (event) => {
    state.log.unshift(JSON.parse(event.data));
    state.log.length = Math.min(state.log.length, 200);
    renderLog();
  });
  source.addEventListener('webhook', (event) => {
    state.webhooks = [JSON.parse(event.data), ...state.webhooks].slice(0, 100);
    renderWebhooks(state.webhooks);
  });
  source.addEventListener('webhooks-cleared', () => {
    state.webhooks = [];
    renderWebhooks(state.webhooks);
  });
  source.addEventListener('reset', () => {
    state.prompts.clear();
    state.transactions = [];
    state.log = [];
    state.webhooks = [];
    payMenu.reset();
    render();
  });
  state.source = source;
}

// ---- the phone ---------------------------------------------------------------------------------

let shownPromptId = null;

function openPrompts() {
  return [...state.prompts.values()]
    .filter((prompt) => prompt.state === 'open' && watched(prompt))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

function businessName() {
  return state.info?.businessName ?? 'Sandbox Test Merchant';
}

function smsFor(prompt) {
  const at = new Date(prompt.completedAt);
  const date = at.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'numeric',
    year: '2-digit',
  });
  const time = at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  if (prompt.resultCode === '0') {
    return `${prompt.receiptNumber} Confirmed. ${money(prompt.amount)} sent to ${businessName()} for account ${prompt.accountReference} on ${date} at ${time}. Transaction cost, Ksh0.00.`;
  }
  return `M-PESA: ${prompt.resultDesc} (${prompt.resultCode}) — ${money(prompt.amount)} to ${businessName()}, account ${prompt.accountReference}.`;
}

function renderPhone() {
  const open = openPrompts();
  const prompt = open[0];
  $('prompt').hidden = !prompt;
  $('idle').hidden = Boolean(prompt);
  if (prompt) {
    $('prompt-text').textContent =
      `Do you want to pay ${money(prompt.amount)} to ${businessName()} for account ${prompt.accountReference}?`;
    $('more').textContent = open.length > 1 ? `${open.length - 1} more prompt(s) waiting` : '';
    if (shownPromptId !== prompt.checkoutRequestId) {
      shownPromptId = prompt.checkoutRequestId;
      $('pin').value = '';
      $('pin').focus();
    }
  } else {
    shownPromptId = null;
  }
  renderCountdown();

  const fromPrompts = [...state.prompts.values()]
    .filter((p) => p.state === 'completed' && watched(p))
    .map((p) => ({
      at: p.completedAt,
      ok: p.resultCode === '0',
      msisdn: p.phoneNumber,
      text: smsFor(p),
    }));
  // Only money moved sends a message: a payment the merchant cancelled is told by the menu.
  const fromLedger = state.transactions.flatMap((transaction) => {
    if (transaction.status !== 'Completed') return [];
    const sms = smsForTransaction(transaction, state.phone, money);
    return sms ? [{ at: transaction.at, ok: true, ...sms }] : [];
  });
  const messages = [...fromPrompts, ...fromLedger]
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, 20);
  $('inbox').replaceChildren(
    ...messages.map((message) => {
      const item = document.createElement('li');
      item.className = message.ok ? 'sms sms-ok' : 'sms sms-failed';
      const to = document.createElement('span');
      to.className = 'sms-to';
      to.textContent = state.phone ? '' : `To ${national(message.msisdn)}`;
      const text = document.createElement('span');
      text.textContent = message.text;
      item.append(to, text);
      return item;
    }),
  );
}

function renderCountdown() {
  const prompt = openPrompts()[0];
  if (!prompt) {
    $('countdown').textContent = '';
    return;
  }
  const left = Math.max(0, Math.ceil((Date.parse(prompt.expiresAt) - Date.now()) / 1000));
  $('countdown').textContent = `Times out in ${left} s`;
}

function renderWatching() {
  $('watching').textContent = state.phone
    ? `Watching ${national(state.phone)}.`
    : 'Watching all numbers.';
  payMenu.refresh();
}

function renderLog() {
  renderLogEntries(state.log);
}

function render() {
  renderWatching();
  renderPhone();
  renderLog();
  renderWebhooks(state.webhooks);
}

// ---- wiring ------------------------------------------------------------------------------------

const payMenu = startPayMenu({ phone: () => state.phone, money, national });

$('watch-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const typed = $('watch-number').value.trim();
  const phone = typed ? normalise(typed) : '';
  if (typed && !phone) {
    $('watching').textContent = 'That is not a Kenyan mobile number.';
    return;
  }
  state.phone = phone;
  $('watch-number').value = phone ? national(phone) : '';
  const url = new URL(location.href);
  if (phone) url.searchParams.set('phone', phone);
  else url.searchParams.delete('phone');
  history.replaceState(null, '', url);
  connect();
  render();
});

$('watch-all').addEventListener('click', () => {
  $('watch-number').value = '';
  $('watch-form').requestSubmit();
});

$('pin-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = openPrompts()[0];
  if (!prompt) return;
  await post(`/_sim/prompts/${encodeURIComponent(prompt.checkoutRequestId)}/pin`, {
    pin: $('pin').value,
  });
});

$('cancel').addEventListener('click', async () => {
  const prompt = openPrompts()[0];
  if (prompt) await post(`/_sim/prompts/${encodeURIComponent(prompt.checkoutRequestId)}/cancel`);
});

$('reset').addEventListener('click', () => post('/_sim/reset'));
$('show-requests').addEventListener('change', renderLog);
$('show-callbacks').addEventListener('change', renderLog);
document.addEventListener('visibilitychange', connect);

setInterval(() => {
  $('clock').textContent = new Date().toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
  });
  renderCountdown();
}, 1000);

fetch('/_sim/info')
  .then((response) => response.json())
  .then((info) => {
    state.info = info;
    $('pin-hint').textContent = info.pin;
    renderPhone();
  })
  .catch(() => {});

// The field is filled once, here and on Watch: never by a render, which the live updates' first
// message makes while someone may already be typing.
$('watch-number').value = state.phone ? national(state.phone) : '';
render();
connect();
