/**
 * A batch approved while another owner decides one of its payouts: the payouts before it are sent,
 * the one the other owner declined stays declined (never sent), and the rest are approved and sent;
 * the answer names those decided now. A batch every one of whose payouts another owner took first
 * is refused as decided. On both databases.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/test-db.ts';
import { silentLog } from '../../test/silent-log.ts';
import {
  decideBatch,
  declinePayout,
  type PayoutActor,
  type PayoutDeps,
} from './payouts.service.ts';
import * as repo from './payouts.repository.ts';

const AT = '2026-11-29T09:00:00.000Z';
const BATCH = 'batch-1';
const OLIVE: PayoutActor = {
  name: 'Olive Owner',
  operatorId: 'olive',
  role: 'owner',
  address: null,
};
const WANJIRU: PayoutActor = {
  name: 'Wanjiru',
  operatorId: 'wanjiru',
  role: 'owner',
  address: null,
};

for (const dialect of DIALECTS) {
  describe(`a batch decided while another owner decides one of it (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      await repo.insertPayouts(
        database.db,
        ['p-1', 'p-2', 'p-3'].map((id) => ({
          id,
          batch_id: BATCH,
          kind: 'BusinessPayment' as const,
          payee: '254708374149',
          account: null,
          amount: 500,
          reason: 'Rider, Friday',
          status: 'proposed' as const,
          proposed_by: 'Cate Cashier',
          proposed_by_id: 'cashier',
          corrects_id: null,
          created_at: AT,
          updated_at: AT,
        })),
      );
    });
    afterEach(() => database.destroy());

    /**
     * Daraja that acknowledges every payout; before answering the first, `meanwhile` runs (another
     * owner's decision, committed while this one's request is out).
     */
    function deps(meanwhile: () => Promise<unknown>): PayoutDeps & { sent: string[] } {
      const sent: string[] = [];
      let first = true;
      const money = {
        canReverse: true,
        asInitiator: () => ({ initiatorName: 'testapi', securityCredential: 'x' }),
        transport: {
          postJson: async (_path: string, body: { OriginatorConversationID: string }) => {
            sent.push(body.OriginatorConversationID);
            if (first) {
              first = false;
              await meanwhile();
            }
            return {
              status: 200,
              body: {
                OriginatorConversationID: body.OriginatorConversationID,
                ConversationID: `AG_${sent.length}`,
                ResponseCode: '0',
                ResponseDescription: 'Accept the service request successfully.',
              },
            };
          },
        },
      } as unknown as DarajaMoneyClient;
      return {
        db: database.db,
        now: () => new Date(AT),
        log: silentLog,
        money,
        callbackUrlFor: (kind) => `http://127.0.0.1:3000/api/callbacks/${kind}`,
        settings: { shortcode: '600000', checkAfterS: 60 } as PayoutDeps['settings'],
        timeZone: 'Africa/Nairobi',
        leaseMs: 60_000,
        sent,
      };
    }
    const statusOf = async (id: string) => (await repo.findPayoutById(database.db, id))?.status;

    it('sends the others, leaves the one declined meanwhile unsent, and answers those it decided', async () => {
      const olive = deps(() => declinePayout(olive, 'p-2', WANJIRU, 'Paid in cash'));
      const decided = await decideBatch(olive, BATCH, OLIVE, 'approve');
      expect(decided.map((payout) => [payout.id, payout.status])).toEqual([
        ['p-1', 'sending'],
        ['p-3', 'sending'],
      ]);
      expect(olive.sent).toEqual(['payout-p-1', 'payout-p-3']);
      expect(await statusOf('p-2')).toBe('declined');
      expect((await repo.findPayoutById(database.db, 'p-2'))?.decided_by).toBe('Wanjiru');
    });

    it('is refused as decided when another owner took every one first', async () => {
      const olive = deps(async () => undefined);
      for (const id of ['p-1', 'p-2', 'p-3']) await declinePayout(olive, id, WANJIRU);
      await expect(decideBatch(olive, BATCH, OLIVE, 'approve')).rejects.toMatchObject({
        code: 'PAYOUT_DECIDED',
      });
      expect(olive.sent).toEqual([]);
    });
  });
}
