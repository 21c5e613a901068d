/**
 * Reconciliation: a callback that never comes is recovered by asking Daraja (STK query).
 *
 * Every instance runs this loop. A pending transaction is due RECONCILE_AFTER_S after it was created;
 * an instance claims due transactions with a lease (so no two instances query the same one at the
 * same time), asks Daraja, and applies a final answer. "Still being processed" or a failed query
 * means asking again later, with backoff. After RECONCILE_GIVE_UP_S the transaction becomes
 * `timeout` with the reason; a genuine success callback arriving later still lifts it.
 */
import { randomUUID } from 'node:crypto';
import type { StkQueryResult } from '../daraja/daraja-client.ts';
import { DarajaError } from '../daraja/daraja-error.ts';
import type { TransactionRow } from '../db/schema.ts';
import { applyOutcome, transition } from './transaction-outcome.ts';
import type { PaymentDeps } from './transactions.service.ts';
import * as repo from './transactions.repository.ts';
import { purgeExpiredKeys } from './idempotency.ts';

export interface ReconcileSettings {
  afterS: number;
  intervalMs: number;
  maxBackoffS: number;
  giveUpS: number;
  /**
   * How long a claim lasts. It must outlive the slowest check (a token, a query, and the same again
   * after a refused token, each up to DARAJA_TIMEOUT_MS), so that a slow Daraja cannot lead a
   * second instance to query the same transaction; a crashed instance's claims lapse after it.
   */
  leaseMs: number;
}

export interface ReconcilerDeps extends PaymentDeps {
  settings: ReconcileSettings;
  /** Names this instance's leases. */
  instanceId: string;
}

const BATCH = 20;

const iso = (ms: number) => new Date(ms).toISOString();

/** Seconds until the next check after `attempts` checks: doubling from RECONCILE_AFTER_S, capped. */
export function backoffS(settings: ReconcileSettings, attempts: number): number {
  return Math.min(settings.afterS * 2 ** Math.max(0, attempts - 1), settings.maxBackoffS);
}

async function giveUp(deps: ReconcilerDeps, row: TransactionRow, reason: string): Promise<void> {
  const at = deps.now().toISOString();
  await deps.db
    .transaction()
    .execute((trx) =>
      transition(
        trx,
        row,
        'timeout',
        { response_description: reason },
        { source: 'reconciliation', note: reason, at },
      ),
    );
  deps.log.warn({ transactionId: row.id }, `reconciliation gave up: ${reason}`);
}

async function checkOne(deps: ReconcilerDeps, row: TransactionRow): Promise<void> {
  const now = deps.now().getTime();
  const age = now - Date.parse(row.created_at);
  const overdue = age >= deps.settings.giveUpS * 1000;
  const attempts = Number(row.check_attempts) + 1;
  const reschedule = () =>
    repo.rescheduleCheck(
      deps.db,
      row.id,
      deps.instanceId,
      attempts,
      iso(now + backoffS(deps.settings, attempts) * 1000),
    );
  const minutes = Math.round(deps.settings.giveUpS / 60);

  if (!row.checkout_request_id) {
    // The push was never acknowledged, so there is nothing to query; only a callback can tell.
    if (overdue)
      return giveUp(
        deps,
        row,
        `M-PESA never confirmed the payment request within ${minutes} minutes.`,
      );
    return reschedule();
  }

  let answer: StkQueryResult;
  try {
    answer = await deps.daraja.stkQuery(row.checkout_request_id);
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    deps.log.warn(
      { transactionId: row.id, kind: error.kind, errorCode: error.errorCode },
      'stk query failed',
    );
    if (overdue)
      return giveUp(
        deps,
        row,
        `M-PESA could not be asked about this payment within ${minutes} minutes.`,
      );
    return reschedule();
  }

  if (answer.state === 'pending') {
    if (overdue) return giveUp(deps, row, `No answer from M-PESA within ${minutes} minutes.`);
    return reschedule();
  }

  const at = deps.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const current = await repo.findTransactionById(trx, row.id);
    if (!current || current.status !== 'pending') return;
    await applyOutcome(
      trx,
      current,
      {
        source: 'query',
        resultCode: answer.resultCode,
        resultDesc: answer.resultDesc,
        metadata: null,
        payload: JSON.stringify(answer.raw),
      },
      at,
    );
  });
  deps.log.info(
    { transactionId: row.id, resultCode: answer.resultCode },
    'reconciled by stk query',
  );
}

/** Claims and checks every transaction due now; returns how many were checked. */
export async function reconcileDue(deps: ReconcilerDeps): Promise<number> {
  const now = deps.now().getTime();
  // The lease outlives a query that times out, so a slow Daraja cannot cause a second query.
  const leaseMs = 60_000;
  const claimed = await repo.claimDueTransactions(
    deps.db,
    deps.instanceId,
    iso(now),
    iso(now + leaseMs),
    BATCH,
  );
  for (const row of claimed) {
    try {
      await checkOne(deps, row);
    } catch (error) {
      deps.log.error({ err: error, transactionId: row.id }, 'reconciliation failed');
    }
  }
  return claimed.length;
}

export interface Reconciler {
  stop(): Promise<void>;
}

export function startReconciler(deps: Omit<ReconcilerDeps, 'instanceId'>): Reconciler {
  const full: ReconcilerDeps = { ...deps, instanceId: randomUUID() };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let rounds = 0;

  const tick = () => {
    running = (async () => {
      try {
        // A full batch means more may be due: go again at once.
        while (!stopped && (await reconcileDue(full)) === BATCH);
        if (rounds++ % 100 === 0) await purgeExpiredKeys(full);
      } catch (error) {
        full.log.error({ err: error }, 'reconciliation round failed');
      }
      if (!stopped) timer = setTimeout(tick, full.settings.intervalMs);
    })();
  };
  timer = setTimeout(tick, full.settings.intervalMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
