/**
 * Reconciliation: a callback that never comes is recovered by asking Daraja (STK query).
 *
 * Every instance runs this loop. A pending transaction is first due RECONCILE_FIRST_CHECK_S after it
 * was created (once its prompt has lapsed, when a query gives a result), later with backoff;
 * an instance claims due transactions with a lease (so no two instances query the same one at the
 * same time), asks Daraja, and applies a final answer. "Still being processed" or a failed query
 * means asking again later, with backoff. After RECONCILE_GIVE_UP_S the transaction becomes
 * `unknown`, never an unpaid status: M-PESA did not say, so the money may have moved. Its text tells
 * the merchant what to check; a callback arriving later still settles it. A payer's "I have paid"
 * (payer-check.ts) asks at once, through the same query and decision.
 *
 * Schedules follow the settings in force: at start-up every pending check is brought forward to
 * what the current RECONCILE_FIRST_CHECK_S, RECONCILE_MAX_BACKOFF_S and RECONCILE_GIVE_UP_S allow.
 */
import { randomUUID } from 'node:crypto';
import type { StkQueryResult } from '../../daraja/daraja-client.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { TransactionRow } from '../../db/schema.ts';
import { applyOutcome, findTransactionById, purgeExpiredKeys } from '../payments/index.ts';
import type { PaymentDeps } from '../payments/index.ts';
import * as schedules from './reconciliation.repository.ts';
import { formatDuration } from '../../lib/duration.ts';
import { transact } from '../../db/transact.ts';
import { startLoop, whileFull, type BackgroundLoop } from '../../db/background-loop.ts';

export interface ReconcileSettings {
  /** The backoff's first step: checks after the first come at doubling intervals from this. */
  afterS: number;
  /** The first check, this long after creation (RECONCILE_FIRST_CHECK_S, at most afterS). */
  firstCheckS: number;
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

/** When a check after `attempts` checks is due: after the backoff, and never after the give-up time. */
function nextCheckAt(
  settings: ReconcileSettings,
  row: TransactionRow,
  now: number,
  attempts: number,
) {
  return iso(
    Math.min(
      now + backoffS(settings, attempts) * 1000,
      Date.parse(row.created_at) + settings.giveUpS * 1000,
    ),
  );
}

async function giveUp(deps: ReconcilerDeps, row: TransactionRow, why: string): Promise<void> {
  const at = deps.now().toISOString();
  await transact(deps.db, (trx) =>
    applyOutcome(deps.writes, trx, row, { kind: 'gave_up', why }, { at }),
  );
  deps.log.warn({ transactionId: row.id }, `reconciliation gave up: ${why}`);
}

async function checkOne(deps: ReconcilerDeps, row: TransactionRow): Promise<void> {
  const now = deps.now().getTime();
  const age = now - Date.parse(row.created_at);
  const overdue = age >= deps.settings.giveUpS * 1000;
  const attempts = Number(row.check_attempts) + 1;
  const reschedule = () =>
    schedules.rescheduleCheck(
      deps.db,
      row.id,
      deps.instanceId,
      attempts,
      nextCheckAt(deps.settings, row, now, attempts),
    );
  const within = `within ${formatDuration(deps.settings.giveUpS)}`;

  if (!row.checkout_request_id) {
    // The push was never acknowledged, so there is nothing to query; only a callback can tell.
    // Its acknowledgement may still be on its way while the push can last.
    if (overdue && age >= deps.pushDeadlineMs)
      return giveUp(deps, row, `M-PESA never confirmed the payment request ${within}.`);
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
      return giveUp(deps, row, `M-PESA could not be asked about this payment ${within}.`);
    return reschedule();
  }

  if (answer.state === 'pending') {
    if (overdue) return giveUp(deps, row, `M-PESA gave no result for this payment ${within}.`);
    return reschedule();
  }

  await applyQueryAnswer(deps, row.id, answer);
  deps.log.info(
    { transactionId: row.id, resultCode: answer.resultCode },
    'reconciled by stk query',
  );
}

/**
 * Applies an STK query's final answer to a payment still pending, through the one decision
 * (decide-outcome.ts), as reconciliation and a payer's "I have paid" (payer-check.ts) both do.
 */
export async function applyQueryAnswer(
  deps: Pick<PaymentDeps, 'db' | 'writes' | 'now'>,
  id: string,
  answer: Extract<StkQueryResult, { state: 'final' }>,
): Promise<void> {
  const at = deps.now().toISOString();
  await transact(deps.db, async (trx) => {
    const current = await findTransactionById(trx, id);
    if (!current || current.status !== 'pending') return;
    await applyOutcome(
      deps.writes,
      trx,
      current,
      { kind: 'query', resultCode: answer.resultCode, resultDesc: answer.resultDesc },
      { payload: JSON.stringify(answer.raw), at },
    );
  });
}

/** Claims and checks every transaction due now; returns how many were checked. */
export async function reconcileDue(deps: ReconcilerDeps): Promise<number> {
  const now = deps.now().getTime();
  const claimed = await schedules.claimDueTransactions(
    deps.db,
    deps.instanceId,
    iso(now),
    iso(now + deps.settings.leaseMs),
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

/**
 * Brings every pending check forward to what the current settings allow: the first check
 * RECONCILE_FIRST_CHECK_S after creation, later ones at most RECONCILE_MAX_BACKOFF_S from now, and none
 * after the give-up time. Schedules made under longer settings would otherwise keep their old times.
 */
export async function rescheduleToSettings(
  deps: Pick<ReconcilerDeps, 'db' | 'now' | 'settings'>,
): Promise<number> {
  const now = deps.now().getTime();
  const { firstCheckS, maxBackoffS, giveUpS } = deps.settings;
  let moved = 0;
  for (const row of await schedules.listPendingSchedules(deps.db)) {
    const created = Date.parse(row.created_at);
    const latest = Math.min(
      Number(row.check_attempts) === 0 ? created + firstCheckS * 1000 : now + maxBackoffS * 1000,
      created + giveUpS * 1000,
    );
    if (row.next_check_at === null || Date.parse(row.next_check_at) > latest) {
      await schedules.bringCheckForward(deps.db, row.id, iso(latest));
      moved++;
    }
  }
  return moved;
}

export function startReconciler(deps: Omit<ReconcilerDeps, 'instanceId'>): BackgroundLoop {
  const full: ReconcilerDeps = { ...deps, instanceId: randomUUID() };
  let rounds = 0;
  let scheduled = false;
  return startLoop({
    log: full.log,
    // Tried again next round: a database that went away is waited for, not reported as a fault.
    words: {
      unavailable: 'reconciliation waits for the database',
      failed: 'reconciliation round failed',
    },
    firstMs: full.settings.intervalMs,
    intervalMs: full.settings.intervalMs,
    round: async (stopped) => {
      if (!scheduled) {
        await rescheduleToSettings(full);
        scheduled = true;
      }
      await whileFull(() => reconcileDue(full), BATCH, stopped);
      if (rounds++ % 100 === 0) await purgeExpiredKeys(full);
    },
  });
}
