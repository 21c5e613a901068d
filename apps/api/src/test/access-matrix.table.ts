/**
 * The merchant's routes, one row each, as the refusal matrix (access-matrix.test.ts) asks them:
 * who may call each, whether it changes something, and what an allowed request is answered. A new
 * guarded route is one more row here.
 */
import { createKey } from '../features/operators/keys/keys.service.ts';
import type { TestDatabase } from './test-db.ts';
import { PAYMENT_ID, keyMaker } from './signed-in.ts';
import { storedPayment } from './stored-payment.ts';
import { addOperator } from '../features/operators/operators.service.ts';
import { anEndpoint, aDelivery } from './webhooks.fixtures.ts';
import type { AccessRule } from '../features/operators/require-operator.ts';

export interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The address, made afresh for each request (a key to revoke is made for each). */
  url: (database: TestDatabase) => string | Promise<string>;
  payload?: () => object;
  /** The least role an operator needs, and the scope a key needs (none: operators only). */
  access: AccessRule;
  /** Changes something: a session's request needs the CSRF token. */
  csrf: boolean;
  /**
   * Open to a request with no credential (the payer's form): a stranger goes through, and a
   * stale or signed-out session's cookie is taken for no credential.
   */
  openToPayers?: boolean;
  /** The status of an allowed request. */
  ok: number;
}

let phone = 0;
/** A phone of its own for each payment request: a phone gets one prompt at a time. */
const nextPayment = () => ({
  phoneNumber: `0712${String(1_000_000 + phone++).slice(1)}`,
  amount: 5,
});

const keyToRevoke = async (database: TestDatabase) => {
  const made = await createKey(database.db, {
    name: 'to revoke',
    scope: 'payments:read',
    ...(await keyMaker(database, 'Amina')),
    now: new Date('2026-11-25T09:00:00.000Z'),
  });
  return `/api/keys/${made.key.id}`;
};

let made = 0;
/** An operator of its own for each request that changes or removes one. */
const anOperator = async (database: TestDatabase) => {
  const name = `Temp ${made++}`;
  await addOperator(database.db, { name, role: 'viewer', password: null, now: new Date() });
  return `/api/operators/${encodeURIComponent(name)}`;
};

/** A flagged payment of its own for each review. */
const aFlaggedPayment = async (database: TestDatabase) => {
  const id = `flagged-${made++}`;
  await database.db
    .insertInto('transactions')
    .values(storedPayment(id, '2026-11-25T08:00:00.000Z', { flagged_reason: 'Paid 90, asked 100' }))
    .execute();
  return `/api/mpesa/transactions/${id}/review`;
};

let receipt = '';
/**
 * A paid payment of its own for each receipt check, whose receipt the check then sends: found in
 * the history at once, M-PESA not asked.
 */
const aPaidReceipt = async (database: TestDatabase) => {
  receipt = `UKQ${String(made++).padStart(7, '0')}`;
  await database.db
    .insertInto('transactions')
    .values(
      storedPayment(`paid-${receipt}`, '2026-11-25T08:00:00.000Z', {
        mpesa_receipt_number: receipt,
      }),
    )
    .execute();
  return '/api/mpesa/receipt-checks';
};

/** A payout of its own for each decision, proposed by someone who is not an operator here. */
const aProposedPayout = async (database: TestDatabase, decision: 'approve' | 'decline') => {
  const id = `payout-${made++}`;
  const at = '2026-11-25T08:00:00.000Z';
  await database.db
    .insertInto('payouts')
    .values({
      id,
      batch_id: null,
      kind: 'SalaryPayment',
      payee: '254708374149',
      account: null,
      amount: 100,
      reason: 'Wages',
      status: 'proposed',
      proposed_by: 'Someone else',
      proposed_by_id: 'someone-else',
      created_at: at,
      updated_at: at,
    })
    .execute();
  return `/api/payouts/${id}/${decision}`;
};

/** A payment link of its own for each request, made by someone who is not an operator here. */
const aLink = async (database: TestDatabase, then: (id: string) => string) => {
  const id = `link-${made++}`;
  await database.db
    .insertInto('payment_links')
    .values({
      id,
      code: `code${String(made).padStart(8, '0')}`,
      amount: 100,
      min_amount: null,
      purpose: 'A test',
      reference: 'TEST',
      one_only: 1,
      expires_at: null,
      switched_off_at: null,
      switched_off_by: null,
      created_by: 'Someone',
      created_by_id: 'someone',
      created_at: '2026-11-25T09:00:00.000Z',
    })
    .execute();
  return then(id);
};

export const ROUTES: RouteCase[] = [
  // Payment links (features/links/). The payer's two routes (`/api/pay/:code`) are open to
  // anyone with the code and are not an operator's: links.test.ts holds them.
  {
    name: 'the payment links',
    method: 'GET',
    url: () => '/api/links',
    access: { role: 'viewer' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'one payment link',
    method: 'GET',
    url: (database) => aLink(database, (id) => `/api/links/${id}`),
    access: { role: 'viewer' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'making a payment link',
    method: 'POST',
    url: () => '/api/links',
    payload: () => ({ amount: 1500, purpose: 'A dress', reference: 'ORDER-1', oneOnly: true }),
    access: { role: 'cashier' },
    csrf: true,
    ok: 201,
  },
  {
    name: 'a payment link’s QR code (SVG)',
    method: 'GET',
    url: (database) => aLink(database, (id) => `/api/links/${id}/qr.svg`),
    access: { role: 'viewer' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'a payment link’s QR code (PNG)',
    method: 'GET',
    url: (database) => aLink(database, (id) => `/api/links/${id}/qr.png`),
    access: { role: 'viewer' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'M-PESA’s QR code for a payment link',
    method: 'POST',
    url: (database) => aLink(database, (id) => `/api/links/${id}/mpesa-qr`),
    access: { role: 'cashier' },
    csrf: true,
    // Let through, it asks Daraja, and none runs here: refused in our words (links-qr.test.ts
    // makes one against the simulator).
    ok: 502,
  },
  {
    name: 'switching a payment link off',
    method: 'POST',
    url: (database) => aLink(database, (id) => `/api/links/${id}/off`),
    access: { role: 'cashier' },
    csrf: true,
    ok: 200,
  },
  {
    name: 'the payouts',
    method: 'GET',
    url: () => '/api/payouts',
    access: { role: 'viewer' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'money out at a glance',
    method: 'GET',
    url: () => '/api/payouts/summary',
    access: { role: 'viewer' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'the payouts as CSV',
    method: 'GET',
    url: () => '/api/payouts/export',
    access: { role: 'owner' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'the balance',
    method: 'GET',
    url: () => '/api/balance',
    access: { role: 'viewer' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'asking for the balance',
    method: 'POST',
    url: () => '/api/balance/read',
    access: { role: 'cashier' },
    csrf: true,
    ok: 202,
  },
  {
    name: 'proposing a payout',
    method: 'POST',
    url: () => '/api/payouts',
    payload: () => ({ to: '0708374149', amount: 100, reason: 'Wages' }),
    access: { role: 'cashier' },
    csrf: true,
    ok: 201,
  },
  {
    name: 'approving a payout',
    method: 'POST',
    url: (database) => aProposedPayout(database, 'approve'),
    access: { role: 'owner' },
    csrf: true,
    ok: 200,
  },
  {
    name: 'declining a payout',
    method: 'POST',
    url: (database) => aProposedPayout(database, 'decline'),
    access: { role: 'owner' },
    csrf: true,
    ok: 200,
  },
  {
    name: 'the history',
    method: 'GET',
    url: () => '/api/mpesa/transactions',
    access: { role: 'viewer', scope: 'payments:read' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'the figures',
    method: 'GET',
    url: () => '/api/mpesa/summary',
    access: { role: 'viewer', scope: 'payments:read' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'a payment’s timeline',
    method: 'GET',
    url: () => `/api/mpesa/transactions/${PAYMENT_ID}/events`,
    access: { role: 'viewer', scope: 'payments:read' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'the export',
    method: 'GET',
    url: () => '/api/mpesa/transactions/export',
    access: { role: 'owner', scope: 'payments:read' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'the API keys',
    method: 'GET',
    url: () => '/api/keys',
    access: { role: 'owner' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'creating an API key',
    method: 'POST',
    url: () => '/api/keys',
    payload: () => ({ name: 'Till', scope: 'payments:read' }),
    access: { role: 'owner' },
    csrf: true,
    ok: 201,
  },
  {
    name: 'revoking an API key',
    method: 'DELETE',
    url: keyToRevoke,
    access: { role: 'owner' },
    csrf: true,
    ok: 200,
  },
  {
    name: 'a payment request',
    method: 'POST',
    url: () => '/api/mpesa/stkpush',
    payload: nextPayment,
    access: { role: 'cashier', scope: 'payments:request' },
    // The payer's form on the first screen has no token: Origin and Sec-Fetch-Site instead.
    csrf: false,
    openToPayers: true,
    ok: 200,
  },
  {
    name: 'the operators',
    method: 'GET',
    url: () => '/api/operators',
    access: { role: 'owner' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'adding an operator',
    method: 'POST',
    url: () => '/api/operators',
    payload: () => ({ name: `New ${made++}`, role: 'viewer' }),
    access: { role: 'owner' },
    csrf: true,
    ok: 201,
  },
  {
    name: 'changing an operator’s role',
    method: 'PATCH',
    url: anOperator,
    payload: () => ({ role: 'cashier' }),
    access: { role: 'owner' },
    csrf: true,
    ok: 200,
  },
  {
    name: 'removing an operator',
    method: 'DELETE',
    url: anOperator,
    access: { role: 'owner' },
    csrf: true,
    ok: 200,
  },
  {
    name: 'a new password link',
    method: 'POST',
    url: async (database) => `${await anOperator(database)}/password-link`,
    access: { role: 'owner' },
    csrf: true,
    ok: 200,
  },
  {
    name: 'the audit trail',
    method: 'GET',
    url: () => '/api/audit',
    access: { role: 'owner' },
    csrf: false,
    ok: 200,
  },
  {
    name: 'a receipt check',
    method: 'POST',
    url: aPaidReceipt,
    payload: () => ({ receipt }),
    access: { role: 'cashier', scope: 'payments:request' },
    csrf: true,
    ok: 200,
  },
  {
    name: 'reviewing a payment',
    method: 'POST',
    url: aFlaggedPayment,
    payload: () => ({ note: 'Seen on the M-PESA statement' }),
    access: { role: 'owner' },
    csrf: true,
    ok: 200,
  },
  ...webhookRoutes(),
];

/** The webhook routes: an owner, or a key with `webhooks:manage` (features/webhooks/webhooks.routes.ts). */
function webhookRoutes(): RouteCase[] {
  const access = { role: 'owner', scope: 'webhooks:manage' } as const;
  const endpoint = async (database: TestDatabase) =>
    `/api/webhooks/endpoints/${(await anEndpoint(database.db)).id}`;
  return [
    // First: the rows after it add endpoints of their own, and a shop has at most 20.
    {
      name: 'adding a webhook endpoint',
      method: 'POST',
      url: () => '/api/webhooks/endpoints',
      payload: () => ({ url: 'http://127.0.0.1:9/events', events: ['payment.succeeded'] }),
      access,
      csrf: true,
      ok: 201,
    },
    {
      name: 'the webhook endpoints',
      method: 'GET',
      url: () => '/api/webhooks/endpoints',
      access,
      csrf: false,
      ok: 200,
    },
    {
      name: 'changing a webhook endpoint',
      method: 'PATCH',
      url: endpoint,
      payload: () => ({ enabled: false }),
      access,
      csrf: true,
      ok: 200,
    },
    {
      name: 'removing a webhook endpoint',
      method: 'DELETE',
      url: endpoint,
      access,
      csrf: true,
      ok: 200,
    },
    {
      name: 'a webhook endpoint’s deliveries',
      method: 'GET',
      url: async (database) => `${await endpoint(database)}/deliveries`,
      access,
      csrf: false,
      ok: 200,
    },
    {
      name: 'resending a webhook delivery',
      method: 'POST',
      url: async (database) => `/api/webhooks/deliveries/${await aDelivery(database.db)}/resend`,
      access,
      csrf: true,
      ok: 200,
    },
    {
      name: 'resending a webhook endpoint’s failed deliveries',
      method: 'POST',
      url: async (database) => `${await endpoint(database)}/resend-failed`,
      access,
      csrf: true,
      ok: 200,
    },
    {
      name: 'a test webhook event',
      method: 'POST',
      url: async (database) => `${await endpoint(database)}/test`,
      access,
      csrf: true,
      ok: 201,
    },
  ];
}
