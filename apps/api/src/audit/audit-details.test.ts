/**
 * Each detail the recorders write reads back into its parts, as the owner's screen says them in
 * its own words; one that does not read gives no parts (the screen shows the stored words).
 */
import { describe, expect, it } from 'vitest';
import type { AuditAction, AuditFacts } from '@mpesa/shared/contract-admin';
import { auditDetail, readAuditDetail } from './audit-details.ts';

const URL_A = 'https://shop.example/mpesa-events';
const URL_B = 'https://shop.example/hooks;v=2';

const WRITTEN: [AuditAction, string, AuditFacts][] = [
  ['operator_added', auditDetail.added('cashier'), { kind: 'role', role: 'cashier' }],
  ['operator_removed', auditDetail.removed('viewer'), { kind: 'role', role: 'viewer' }],
  [
    'operator_role_changed',
    auditDetail.roleChanged('viewer', 'owner'),
    { kind: 'role_change', from: 'viewer', to: 'owner' },
  ],
  [
    'review',
    auditDetail.reviewed('unknown', 'success', 'on the statement → paid: 100 KES\nline two'),
    {
      kind: 'review',
      from: 'unknown',
      to: 'success',
      note: 'on the statement → paid: 100 KES\nline two',
    },
  ],
  [
    'refund',
    auditDetail.refunded(1500.5, 'goods returned: all of them'),
    { kind: 'refund', amount: 1500.5, reason: 'goods returned: all of them' },
  ],
  [
    'key_created',
    auditDetail.key('payments:read'),
    { kind: 'key', scope: 'payments:read', maker: null },
  ],
  [
    'key_revoked',
    auditDetail.keyOfMaker('webhooks:manage', 'Zuri Wa Pili', null),
    { kind: 'key', scope: 'webhooks:manage', maker: { name: 'Zuri Wa Pili', role: null } },
  ],
  [
    'key_revoked',
    auditDetail.keyOfMaker('payments:request', 'Amina', 'cashier'),
    { kind: 'key', scope: 'payments:request', maker: { name: 'Amina', role: 'cashier' } },
  ],
  ['password_set', auditDetail.oneTimeLink, { kind: 'one_time_link' }],
  ['sign_in_failed', auditDetail.signInRace, { kind: 'sign_in_race' }],
  ...(['name_from_address', 'address', 'name'] as const).map(
    (by): [AuditAction, string, AuditFacts] => [
      'sign_in_failed',
      auditDetail.signInLimit(by, new Date('2026-11-25T09:15:00.000Z')),
      { kind: 'sign_in_limit', by, until: '2026-11-25T09:15:00.000Z' },
    ],
  ),
  [
    'webhook_endpoint_added',
    auditDetail.endpointAdded(URL_A, '["payment.succeeded","payment.failed"]'),
    { kind: 'endpoint', url: URL_A, events: ['payment.succeeded', 'payment.failed'] },
  ],
  [
    'webhook_endpoint_removed',
    auditDetail.endpointRemoved(URL_A),
    { kind: 'endpoint', url: URL_A, events: [] },
  ],
  [
    'webhook_endpoint_changed',
    auditDetail.endpointChanged({
      url: { from: URL_A, to: URL_B },
      events: '["payment.refunded"]',
      enabled: false,
    }),
    {
      kind: 'endpoint_change',
      url: { from: URL_A, to: URL_B },
      events: ['payment.refunded'],
      enabled: false,
    },
  ],
  [
    'webhook_endpoint_changed',
    auditDetail.endpointChanged({ enabled: true }),
    { kind: 'endpoint_change', url: null, events: null, enabled: true },
  ],
  [
    'webhook_endpoint_changed',
    auditDetail.endpointChanged({}),
    { kind: 'endpoint_change', url: null, events: null, enabled: null },
  ],
  [
    'webhook_endpoint_disabled',
    auditDetail.endpointFailing(URL_A, '2026-11-20T09:00:00.000Z'),
    { kind: 'endpoint_failing', url: URL_A, since: '2026-11-20T09:00:00.000Z' },
  ],
  [
    'webhook_secret_rotated',
    auditDetail.secretRotated('whsec_Q3zR8T'),
    { kind: 'secret', prefix: 'whsec_Q3zR8T' },
  ],
  [
    'webhook_resent',
    auditDetail.resent('payment.succeeded', 'evt_1'),
    { kind: 'resent', eventType: 'payment.succeeded', eventId: 'evt_1' },
  ],
  ['webhook_resent', auditDetail.resentFailed(3), { kind: 'resent_failed', count: 3 }],
  ['webhook_test_sent', auditDetail.testSent('evt_2'), { kind: 'test_event', eventId: 'evt_2' }],
];

describe('the audit trail’s details', () => {
  it.each(WRITTEN)('reads a %s line’s detail “%s” into its parts', (action, detail, facts) => {
    expect(readAuditDetail(action, detail)).toEqual(facts);
  });

  it('reads an export’s filters, and says by name and value the ones it does not know', () => {
    expect(readAuditDetail('export', '{}')).toEqual({
      kind: 'export',
      status: [],
      channel: [],
      from: null,
      to: null,
      search: false,
      more: [],
    });
    const stored = JSON.stringify({
      status: ['success', 'failed'],
      channel: ['till'],
      from: '2026-11-01',
      to: '2026-11-25',
      q: '…',
      amountOver: 1000,
      tags: ['a', 'b'],
    });
    expect(readAuditDetail('export', stored)).toEqual({
      kind: 'export',
      status: ['success', 'failed'],
      channel: ['till'],
      from: '2026-11-01',
      to: '2026-11-25',
      search: true,
      more: [
        { name: 'amountOver', value: '1000' },
        { name: 'tags', value: 'a, b' },
      ],
    });
    // A status this version does not know is not dropped: it is said as it was stored.
    expect(readAuditDetail('export', '{"status":["parked"]}')).toMatchObject({
      status: [],
      more: [{ name: 'status', value: 'parked' }],
    });
  });

  it('gives no parts for a detail it cannot read, or none', () => {
    for (const [action, detail] of [
      ['export', '{"status":["success"'],
      ['export', '[1,2]'],
      ['operator_added', 'role: janitor'],
      ['operator_role_changed', 'viewer → owner: why'],
      ['review', 'success → success'],
      ['key_created', 'scope everything'],
      [
        'sign_in_failed',
        'too many failed sign-ins for this moon: attempts are refused until about x',
      ],
      ['webhook_endpoint_changed', 'colour blue'],
      ['sign_in', 'anything'],
    ] as [AuditAction, string][]) {
      expect(readAuditDetail(action, detail), `${action}: ${detail}`).toBeNull();
    }
    expect(readAuditDetail('operator_added', null)).toBeNull();
  });
});
