/**
 * A refund's Results (docs/daraja-protocol.md §M1.3): the reversal's own, posted to its ResultURL
 * (§M7), and a transaction status query's about the reversal (§M5), posted when the recovery asked.
 * Each body is kept first, whatever it holds (callbacks/kept-callback.ts); the refund it is about
 * is found by the request's ids, and decide-refund.ts says what the Result does.
 */
import type { Kysely } from 'kysely';
import { settleKeptCallback } from '../../callbacks/kept-callback.ts';
import { keepResult } from '../../callbacks/result-callback.ts';
import { lookUpOvertaken } from '../../callbacks/overtaken-lookup.ts';
import { parameter, type DarajaResult } from '../../daraja/result-parser.ts';
import type { CallbackOutcome, Database, RefundRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { decideRefund, type RefundReport } from './decide-refund.ts';
import { carryOutRefund } from './refund-outcome.ts';
import type { RefundDeps } from './refunds.service.ts';
import * as repo from './refunds.repository.ts';

type Db = Kysely<Database>;

/** The kinds of callback refunds handle: a reversal's Result, and a status query's about it. */
export type RefundResultKind = 'reversal' | 'refund-status';

/**
 * The refund a Result is about. A reversal's: by its OriginatorConversationID, then its
 * ConversationID. A status query's: by the query's OriginatorConversationID (the latest query's),
 * then by the reversal's, which the Result names among its parameters (§M5), so that the answer to
 * an earlier query still counts.
 */
async function refundFor(
  trx: Db,
  kind: RefundResultKind,
  result: DarajaResult,
): Promise<RefundRow | undefined> {
  if (kind === 'reversal') return repo.findRefundByConversation(trx, result);
  const byQuery = await repo.findRefundByStatusQuery(trx, result.originatorConversationId);
  if (byQuery) return byQuery;
  const original = parameter(result, 'OriginatorConversationID');
  return original === null ? undefined : repo.findRefundByOriginator(trx, original);
}

function reportOf(kind: RefundResultKind, result: DarajaResult): RefundReport {
  const { resultCode, resultDesc } = result;
  if (kind === 'reversal') {
    // The Result's TransactionID is the reversal's own receipt (§M7).
    return { kind: 'reversal', resultCode, resultDesc, receipt: result.transactionId };
  }
  return {
    kind: 'status',
    resultCode,
    resultDesc,
    transactionStatus: parameter(result, 'TransactionStatus'),
    receipt: parameter(result, 'ReceiptNo'),
  };
}

/** Keeps a Result's body, then applies it to its refund; what became of it. */
export async function takeRefundResult(
  deps: Pick<RefundDeps, 'db' | 'now' | 'log' | 'settings'>,
  kind: RefundResultKind,
  received: { raw: string; ip: string | null },
): Promise<CallbackOutcome> {
  const at = deps.now().toISOString();
  const kept = await keepResult(deps, { kind, raw: received.raw, ip: received.ip, at });
  if (kept === 'invalid') return 'invalid';
  const { callbackId, result } = kept;
  // Looked for outside the transaction, which would keep the request's writer from saving the ids
  // on SQLite (one writer): a Result can overtake them (callbacks/overtaken-lookup.ts).
  const known = await lookUpOvertaken(() => refundFor(deps.db, kind, result));
  const outcome = await transact(deps.db, async (trx): Promise<CallbackOutcome> => {
    const refund = known && (await refundFor(trx, kind, result));
    if (!refund) {
      await settleKeptCallback(trx, callbackId, 'orphan');
      return 'orphan';
    }
    const pastGiveUp =
      Date.parse(at) - Date.parse(refund.created_at) >= deps.settings.giveUpS * 1000;
    const decision = decideRefund(refund.status, reportOf(kind, result), pastGiveUp);
    const applied = await carryOutRefund(trx, refund, decision, at);
    await settleKeptCallback(trx, callbackId, applied, refund.transaction_id);
    return applied;
  });
  deps.log.info({ kind, resultCode: result.resultCode, outcome }, 'result received');
  return outcome;
}
