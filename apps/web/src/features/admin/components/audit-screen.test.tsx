/**
 * The audit trail as a shop owner reads it, in English and in Kiswahili: who, what and to what in
 * words, from the parts the API reads out of each line; payments, operators, keys and webhook
 * endpoints linked to where they are seen; never the stored JSON, and on the Kiswahili page none of
 * the English the screen owns.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@mpesa/shared/contract-admin';
import { formatDate } from '../../../lib/format';
import { mockApi, renderApp } from '../../../test/render-app';
import { en } from '../audit-words.en';
import { sw } from '../audit-words.sw';

const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });

const entry = (id: string, fields: Partial<AuditEntry>): AuditEntry => ({
  id,
  at: '2026-11-25T10:00:00.000Z',
  actorKind: 'operator',
  actor: 'Amina',
  action: 'sign_in',
  target: null,
  subject: null,
  detail: null,
  facts: null,
  address: '192.0.2.7',
  ...fields,
});
const operator = (name: string) => ({ kind: 'operator' as const, id: name, name });

/** One of each kind of line an owner meets, newest first. */
const ENTRIES: AuditEntry[] = [
  entry('e-export', {
    actorKind: 'key',
    actor: 'Accounts',
    action: 'export',
    detail:
      '{"status":["success","failed"],"channel":["till"],"from":"2026-11-01","to":"2026-11-25","q":"…","amountOver":1000}',
    facts: {
      kind: 'export',
      status: ['success', 'failed'],
      channel: ['till'],
      from: '2026-11-01',
      to: '2026-11-25',
      search: true,
      more: [{ name: 'amountOver', value: '1000' }],
    },
  }),
  entry('e-review', {
    action: 'review',
    target: 'tx-1',
    subject: { kind: 'payment', id: 'tx-1', name: 'INV-1042' },
    detail: 'unknown → success: seen on the statement',
    facts: { kind: 'review', from: 'unknown', to: 'success', note: 'seen on the statement' },
  }),
  entry('e-kept', {
    action: 'review',
    target: 'tx-3',
    subject: { kind: 'payment', id: 'tx-3', name: 'INV-7' },
    detail: 'success → success: the amounts match',
    facts: { kind: 'review', from: 'success', to: 'success', note: 'the amounts match' },
  }),
  entry('e-refund', {
    action: 'refund',
    target: 'tx-2',
    subject: { kind: 'payment', id: 'tx-2', name: null },
    detail: '1500 KES: goods returned',
    facts: { kind: 'refund', amount: 1500, reason: 'goods returned' },
  }),
  entry('e-added', {
    action: 'operator_added',
    target: 'Baraka',
    subject: operator('Baraka'),
    detail: 'role: cashier',
    facts: { kind: 'role', role: 'cashier' },
  }),
  entry('e-set', {
    actor: 'Baraka',
    action: 'password_set',
    target: 'Baraka',
    subject: operator('Baraka'),
    detail: 'by a one-time link',
    facts: { kind: 'one_time_link' },
  }),
  entry('e-revoked', {
    action: 'key_revoked',
    target: 'Till 2',
    subject: { kind: 'key', id: 'Till 2', name: 'Till 2' },
    detail: 'scope payments:read; its maker Zuri was removed',
    facts: { kind: 'key', scope: 'payments:read', maker: { name: 'Zuri', role: null } },
  }),
  entry('e-limit', {
    actorKind: 'anonymous',
    actor: 'Otieno',
    action: 'sign_in_failed',
    detail: 'too many failed sign-ins for this address: attempts are refused until about …',
    facts: { kind: 'sign_in_limit', by: 'address', until: '2026-11-25T10:15:00.000Z' },
  }),
  entry('e-stranger', { actorKind: 'anonymous', actor: null, action: 'sign_in_failed' }),
  entry('e-failing', {
    actorKind: 'command',
    actor: null,
    action: 'webhook_endpoint_disabled',
    target: 'wh-1',
    subject: { kind: 'webhook_endpoint', id: 'wh-1', name: 'https://shop.example/hooks' },
    detail: 'Every delivery to https://shop.example/hooks has failed since …',
    facts: {
      kind: 'endpoint_failing',
      url: 'https://shop.example/hooks',
      since: '2026-11-22T10:00:00.000Z',
    },
    address: null,
  }),
  entry('e-added-endpoint', {
    action: 'webhook_endpoint_added',
    target: 'wh-2',
    subject: { kind: 'webhook_endpoint', id: 'wh-2', name: 'https://shop.example/v2' },
    detail: 'https://shop.example/v2 (["payment.succeeded","payment.failed"])',
    facts: {
      kind: 'endpoint',
      url: 'https://shop.example/v2',
      events: ['payment.succeeded', 'payment.failed'],
    },
  }),
  entry('e-changed-endpoint', {
    actorKind: 'key',
    actor: 'Hooks',
    action: 'webhook_endpoint_changed',
    target: 'wh-2',
    subject: { kind: 'webhook_endpoint', id: 'wh-2', name: null },
    detail: 'URL … → …; events […]; disabled',
    facts: {
      kind: 'endpoint_change',
      url: { from: 'https://shop.example/v1', to: 'https://shop.example/v2' },
      events: [
        'payment.received',
        'payment.succeeded',
        'payment.failed',
        'payment.cancelled',
        'payment.timed_out',
        'payment.unknown',
        'payment.flagged',
        'payment.refunded',
        'payout.succeeded',
        'payout.failed',
        'link.paid',
      ],
      enabled: false,
    },
  }),
  entry('e-newer', {
    action: 'operator_role_changed',
    target: 'Otieno',
    subject: operator('Otieno'),
    detail: 'a wording from a newer version',
  }),
];

beforeEach(() => localStorage.setItem('mpesa.signedIn', '1'));

function ownerApi() {
  return mockApi((call) => {
    if (call.path === '/api/audit') return ok({ entries: ENTRIES, nextCursor: null });
    if (call.path === '/api/auth/me') return ok({ name: 'Amina', role: 'owner' });
    if (call.path === '/api/auth/csrf') return ok({ token: 'csrf-1' });
    return undefined;
  });
}

/** The trail's rows, by their entry's id. */
async function rows(): Promise<Record<string, HTMLElement>> {
  const [, ...found] = await screen.findAllByRole('row');
  expect(found).toHaveLength(ENTRIES.length);
  return Object.fromEntries(ENTRIES.map((each, index) => [each.id, found[index]!]));
}

/** A link's name and where it goes. */
const link = (row: HTMLElement, name: string) =>
  within(row).getByRole('link', { name }).getAttribute('href');

function expectNoJson(table: HTMLElement) {
  expect(table.textContent).not.toMatch(/[{}]|"status"|payments:read|sign_in|_/);
}

describe('the audit trail, read by a shop owner', () => {
  it('says who did what, to what, in words, and links what it names', async () => {
    ownerApi();
    renderApp('/audit');
    const row = await rows();

    expect(row['e-export']).toHaveTextContent(
      'Exported payments' +
        'status Success or Failed, paid by till, 1 Nov – 25 Nov 2026, with a search, with other filters',
    );
    expect(link(row['e-export']!, 'API key “Accounts”')).toBe('/keys');

    expect(row['e-review']).toHaveTextContent(
      'Reviewed a paymentUnknown → Success; note: “seen on the statement”',
    );
    expect(link(row['e-review']!, 'Payment INV-1042')).toBe('/transactions/tx-1');
    expect(link(row['e-review']!, 'Amina')).toBe('/operators');

    expect(row['e-kept']).toHaveTextContent(
      'Reviewed a paymentstill Success; note: “the amounts match”',
    );
    expect(row['e-refund']).toHaveTextContent(
      'Refunded a payment1,500 KES; reason: “goods returned”',
    );
    expect(link(row['e-refund']!, 'The payment')).toBe('/transactions/tx-2');

    expect(row['e-added']).toHaveTextContent('Added an operatoras Cashier');
    expect(link(row['e-added']!, 'Baraka')).toBe('/operators');

    // A cashier setting their own password is theirs, never "someone not signed in".
    expect(row['e-set']).toHaveTextContent('Set their passwordwith a one-time link');
    expect(within(row['e-set']!).getAllByRole('link', { name: 'Baraka' })).toHaveLength(2);
    expect(row['e-set']).not.toHaveTextContent('not signed in');

    expect(row['e-revoked']).toHaveTextContent(
      'Revoked an API keymay Read payments; its maker, Zuri, was removed',
    );
    expect(link(row['e-revoked']!, 'Till 2')).toBe('/keys');

    expect(row['e-limit']).toHaveTextContent('Someone signing in as Otieno');
    expect(row['e-limit']).toHaveTextContent(
      `too many failed attempts from this address, refused until ${formatDate('2026-11-25T10:15:00.000Z')}`,
    );
    expect(row['e-stranger']).toHaveTextContent('Someone not signed in');
    expect(within(row['e-stranger']!).queryByRole('link')).not.toBeInTheDocument();

    expect(row['e-failing']).toHaveTextContent('The server, on its own');
    expect(row['e-failing']).toHaveTextContent(
      `every delivery to it had failed since ${formatDate('2026-11-22T10:00:00.000Z')}`,
    );
    expect(link(row['e-failing']!, 'https://shop.example/hooks')).toBe('/webhooks');

    expect(row['e-added-endpoint']).toHaveTextContent(
      'Added a webhook endpointevents: A payment succeeded and A payment failed',
    );
    expect(row['e-changed-endpoint']).toHaveTextContent(
      'Changed a webhook endpointURL now https://shop.example/v2, events now: all, turned off',
    );
    expect(link(row['e-changed-endpoint']!, 'A webhook endpoint')).toBe('/webhooks');

    // A detail this version cannot read is shown as stored, and said to be English.
    const newer = within(row['e-newer']!).getByText('a wording from a newer version');
    expect(newer).toHaveAttribute('lang', 'en');

    expectNoJson(screen.getByRole('table'));
  });

  it('shows a line a later version wrote, of an action and a doer it does not know, as stored', async () => {
    const later = entry('e-later', {
      actorKind: 'scheduler',
      actor: 'Night run',
      action: 'stock_counted',
      target: 'po_1',
      detail: 'KES 5,000',
      address: null,
    });
    mockApi((call) => {
      if (call.path === '/api/audit') return ok({ entries: [later], nextCursor: null });
      if (call.path === '/api/auth/me') return ok({ name: 'Amina', role: 'owner' });
      return undefined;
    });
    renderApp('/audit');
    const [, row] = await screen.findAllByRole('row');
    // Named as stored, not as someone signing in.
    expect(within(row!).getByText('Night run', { exact: true })).toBeInTheDocument();
    expect(within(row!).getByText('stock_counted', { exact: true })).toBeInTheDocument();
    expect(row).toHaveTextContent('KES 5,000');
  });

  it('says it all in Kiswahili, with none of the screen’s English', async () => {
    ownerApi();
    renderApp('/audit');
    await rows();
    const group = within(screen.getByRole('group', { name: 'Language' }));
    await userEvent.click(group.getByRole('button', { name: 'Kiswahili' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Rekodi ya shughuli' }),
    ).toBeInTheDocument();
    const row = await rows();

    expect(row['e-export']).toHaveTextContent(
      'Alipakua malipo' +
        'hali Imefanikiwa au Imeshindwa, yaliyolipwa kwa till, 1 Nov – 25 Nov 2026, kwa utafutaji',
    );
    expect(link(row['e-export']!, 'Ufunguo wa API “Accounts”')).toBe('/keys');
    expect(row['e-review']).toHaveTextContent(
      'Alikagua malipoHaijulikani → Imefanikiwa; maelezo: “seen on the statement”',
    );
    expect(link(row['e-review']!, 'Malipo INV-1042')).toBe('/transactions/tx-1');
    expect(row['e-kept']).toHaveTextContent(
      'Alikagua malipobado Imefanikiwa; maelezo: “the amounts match”',
    );
    expect(row['e-refund']).toHaveTextContent(
      'Alirudisha malipo1,500 KES; sababu: “goods returned”',
    );
    expect(link(row['e-refund']!, 'Malipo hayo')).toBe('/transactions/tx-2');
    expect(row['e-added']).toHaveTextContent('Aliongeza mhudumukama Keshia');
    expect(row['e-set']).toHaveTextContent('Aliweka nenosiri lakekwa kiungo cha mara moja');
    expect(row['e-revoked']).toHaveTextContent(
      'Alibatilisha ufunguo wa APIunaruhusiwa Kusoma malipo; aliyeuunda, Zuri, aliondolewa',
    );
    expect(row['e-limit']).toHaveTextContent('Mtu aliyejaribu kuingia kama Otieno');
    expect(row['e-limit']).toHaveTextContent(
      `majaribio mengi mno yaliyoshindwa kutoka anwani hii ya mtandao, yanakataliwa hadi ${formatDate('2026-11-25T10:15:00.000Z', 'sw')}`,
    );
    expect(row['e-stranger']).toHaveTextContent('Mtu ambaye hajaingia');
    expect(row['e-failing']).toHaveTextContent('Seva yenyewe');
    expect(row['e-failing']).toHaveTextContent(formatDate('2026-11-22T10:00:00.000Z', 'sw'));
    expect(row['e-added-endpoint']).toHaveTextContent(
      'Aliongeza anwani ya webhookmatukio: Malipo yamefanikiwa na Malipo yameshindwa',
    );
    expect(row['e-changed-endpoint']).toHaveTextContent(
      'Alibadilisha anwani ya webhookURL sasa ni https://shop.example/v2, matukio sasa: yote, imezimwa',
    );
    expect(link(row['e-changed-endpoint']!, 'Anwani ya webhook')).toBe('/webhooks');

    const table = screen.getByRole('table');
    expectNoJson(table);
    // Everything but what the owners typed (notes, reasons, names) and the stored English that
    // is said to be English: none of the screen's English words may be left.
    const shown = table.cloneNode(true) as HTMLElement;
    for (const english of shown.querySelectorAll('[lang="en"]')) english.remove();
    const text = shown.textContent ?? '';
    for (const words of englishOnly(en, sw)) expect(text, `“${words}”`).not.toContain(words);
    for (const words of ['Success', 'Failed', 'Unknown', 'Cashier', 'Read payments', 'Payment ']) {
      expect(text).not.toContain(words);
    }
  });
});

/**
 * The English of each text that Kiswahili says otherwise: a text itself, or the fixed words of a
 * function's (called with a marker for each argument), those of at least four letters.
 */
function englishOnly(english: unknown, kiswahili: unknown): string[] {
  if (typeof english === 'string') return english === kiswahili ? [] : [english];
  if (typeof english === 'function' && typeof kiswahili === 'function') {
    const marker = '\u0001';
    return [marker, null].flatMap((given) => {
      const other = String(kiswahili(given, given));
      return String(english(given, given))
        .split(marker)
        .map((part) => part.trim())
        .filter((part) => /[A-Za-z]{4}/.test(part) && !other.includes(part));
    });
  }
  if (typeof english === 'object' && english !== null) {
    return Object.entries(english).flatMap(([key, value]) =>
      englishOnly(value, (kiswahili as Record<string, unknown>)[key]),
    );
  }
  return [];
}
