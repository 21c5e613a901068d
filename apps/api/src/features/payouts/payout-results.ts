/**
 * A payout's Results (docs/daraja-protocol.md §M1.3): its own, posted to the ResultURL it was sent
 * with (B2C §M4.3, B2B §M8.1), and a transaction status query's about it (§M5), posted when the
 * recovery asked. Each body is kept first, whatever it holds (callbacks/kept-callback.ts); the payout
 * is found by the request's ids, and decide-payout.ts says what the Result does.
 */
import { randomUUID } from 'node:crypto';
import { isPhonePayout } from '@mpesa/shared/contract-payouts';
import { settleKeptCallback } from '../../callbacks/kept-callback.ts';
import { keepResult } from '../../callbacks/result-callback.ts';
import { lookUpOvertaken } from '../../callbacks/overtaken-lookup.ts';
import { parameter, type DarajaResult } from '../../daraja/result-parser.ts';
import type { CallbackOutcome, Database, PayoutRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import type { Kysely } from 'kysely';
import { decidePayout, type PayoutReport } from './decide-payout.ts';
import { carryOutPayout } from './payout-outcome.ts';
import { sendHeld, type PayoutDeps } from './payouts.service.ts';
import * as repo from './payouts.repository.ts';

/** The kinds of callback payouts handle. */
export type PayoutResultKind = 'payout-b2c' | 'payout-b2b' | 'payout-status';

/**
 * A charge as Daraja writes it: B2B's `DebitPartyCharges` may be `""` (none); transaction status
 * gives `Fee For B2C Payment|KES|22.40`. In cents, or null when it does not say.
 */
export function chargeCents(text: string | null): number | null {
  if (text === null) return null;
  if (text.trim() === '') return 0;
  const amount = /(?:^|\|)(-?[0-9]+(?:\.[0-9]{1,2})?)$/.exec(text.trim())?.[1];
  return amount === undefined ? null : Math.round(Math.abs(Number(amount)) * 100);
}

function reportOf(kind: PayoutResultKind, result: DarajaResult): PayoutReport {
  const { resultCode, resultDesc } = result;
  if (kind !== 'payout-status') {
    return {
      kind: 'result',
      resultCode,
      resultDesc,
      receipt: parameter(result, 'TransactionReceipt') ?? result.transactionId,
      receiverName: parameter(result, 'ReceiverPartyPublicName'),
      // B2C's Result does not carry the charge; B2B's does (`""`: none).
      chargeCents:
        kind === 'payout-b2b' ? chargeCents(parameter(result, 'DebitPartyCharges')) : null,
    };
  }
  // The credit party is the second DebitPartyName (§M5), or CreditPartyName where given.
  const names = result.parameters.filter((item) => item.key === 'DebitPartyName');
  return {
    kind: 'status',
    resultCode,
    resultDesc,
    transactionStatus: parameter(result, 'TransactionStatus'),
    receipt: parameter(result, 'ReceiptNo'),
    receiverName: parameter(result, 'CreditPartyName') ?? names[1]?.value ?? null,
    chargeCents: chargeCents(parameter(result, 'DebitPartyCharges') ?? ''),
  };
}

function payoutFor(db: Kysely<Database>, kind: PayoutResultKind, result: DarajaResult) {
  if (kind !== 'payout-status') return repo.findPayoutByConversation(db, result);
  return repo.findPayoutByStatusQuery(db, {
    statusQueryId: result.originatorConversationId,
    original: parameter(result, 'OriginatorConversationID'),
  });
}

/** Whether PAYOUT_GIVE_UP_S has passed since it was approved. */
export function pastGiveUp(deps: Pick<PayoutDeps, 'settings'>, payout: PayoutRow, at: string) {
  const since = Date.parse(payout.decided_at ?? payout.created_at);
  return Date.parse(at) - since >= deps.settings.giveUpS * 1000;
}

/** Keeps a Result's body, then applies it to its payout; what became of it. */
export async function takePayoutResult(
  deps: PayoutDeps,
  kind: PayoutResultKind,
  received: { raw: string; ip: string | null },
): Promise<CallbackOutcome> {
  const at = deps.now().toISOString();
  const kept = await keepResult(deps, { kind, raw: received.raw, ip: received.ip, at });
  if (kept === 'invalid') return 'invalid';
  const { callbackId, result } = kept;
  // Outside the transaction: a Result can overtake the saving of the acknowledgement's ids.
  const known = await lookUpOvertaken(() => payoutFor(deps.db, kind, result));
  let resend: PayoutRow | undefined;
  const outcome = await transact(deps.db, async (trx): Promise<CallbackOutcome> => {
    const payout = known && (await payoutFor(trx, kind, result));
    if (!payout) {
      await settleKeptCallback(trx, callbackId, 'orphan');
      return 'orphan';
    }
    const decision = decidePayout(
      {
        status: payout.status,
        toPhone: isPhonePayout(payout.kind),
        chargeKnown: payout.charge_cents !== null,
        pastGiveUp: pastGiveUp(deps, payout, at),
      },
      reportOf(kind, result),
    );
    if (decision.kind === 'resend') {
      resend = payout;
      await settleKeptCallback(trx, callbackId, 'applied');
      return 'applied';
    }
    const applied = await carryOutPayout(trx, payout, decision, at);
    await settleKeptCallback(trx, callbackId, applied);
    return applied;
  });
  deps.log.info({ kind, resultCode: result.resultCode, outcome }, 'payout result received');
  if (resend) await resendPayout(deps, resend.id);
  return outcome;
}

/**
 * Sends again a B2C payout M-PESA has no record of, under the same OriginatorConversationID (which
 * M-PESA refuses if it had it after all: the answer is then unknown, and it is asked about again),
 * held from the recovery meanwhile. Nothing is sent when another instance holds it.
 */
export async function resendPayout(deps: PayoutDeps, id: string): Promise<void> {
  const holder = randomUUID();
  const now = deps.now();
  const held = await repo.holdPayout(
    deps.db,
    id,
    holder,
    now.toISOString(),
    new Date(now.getTime() + deps.leaseMs).toISOString(),
  );
  if (!held || !isPhonePayout(held.kind) || held.originator_conversation_id === null) return;
  deps.log.warn({ payoutId: id }, 'payout unknown to M-PESA: sent again under the same id');
  await sendHeld(deps, held, holder, { resend: true });
}
