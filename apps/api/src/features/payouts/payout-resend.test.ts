/**
 * A payout sent again because M-PESA had no record of it (payout-results.ts) that cannot reach
 * Daraja stays `sending`: the first request may still be in M-PESA's queue, and failing the payout
 * would offer it for correction, a new payout that could pay twice. A first send that cannot reach
 * Daraja sent nothing, and fails. On both databases.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/test-db.ts';
import { sendHeld, type PayoutDeps } from './payouts.service.ts';
import * as repo from './payouts.repository.ts';
import { silentLog } from '../../test/silent-log.ts';

const AT = '2026-11-29T09:00:00.000Z';
const HOLDER = 'this-instance';

/** Daraja that cannot be reached: every request is refused a connection. */
const unreachable = {
  canReverse: true,
  asInitiator: () => ({ initiatorName: 'testapi', securityCredential: 'x' }),
  transport: {
    postJson: () => Promise.reject(new DarajaError('unreachable', 'connect ECONNREFUSED')),
  },
} as unknown as DarajaMoneyClient;

for (const dialect of DIALECTS) {
  describe(`a payout sent again when Daraja cannot be reached (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(() => database.destroy());

    async function heldPayout(id: string) {
      await repo.insertPayouts(database.db, [
        {
          id,
          batch_id: null,
          kind: 'BusinessPayment',
          payee: '254708374149',
          account: null,
          amount: 500,
          reason: 'Rider, Friday',
          status: 'sending',
          proposed_by: 'Cate Cashier',
          proposed_by_id: 'cashier-id',
          decided_by: 'Olive Owner',
          decided_by_id: 'owner-id',
          decided_at: AT,
          corrects_id: null,
          originator_conversation_id: `payout-${id}`,
          created_at: AT,
          updated_at: AT,
          next_check_at: AT,
          lease_owner: HOLDER,
          lease_until: '2026-11-29T09:01:00.000Z',
        },
      ]);
      return (await repo.findPayoutById(database.db, id))!;
    }

    const deps = (): PayoutDeps => ({
      db: database.db,
      now: () => new Date(AT),
      log: silentLog,
      money: unreachable,
      callbackUrlFor: (kind) => `http://127.0.0.1:3000/api/callbacks/${kind}`,
      settings: { shortcode: '600000' } as PayoutDeps['settings'],
      timeZone: 'Africa/Nairobi',
      leaseMs: 60_000,
    });

    it('stays sending when it was a resend, to be asked about again', async () => {
      await sendHeld(deps(), await heldPayout('p-resend'), HOLDER, { resend: true });
      const after = await repo.findPayoutById(database.db, 'p-resend');
      expect(after).toMatchObject({ status: 'sending', lease_owner: null });
    });

    it('fails when it was the first send, which never left', async () => {
      await sendHeld(deps(), await heldPayout('p-first'), HOLDER);
      const after = await repo.findPayoutById(database.db, 'p-first');
      expect(after?.status).toBe('failed');
    });
  });
}
