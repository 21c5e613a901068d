/**
 * A payer's "I have paid": M-PESA is asked at once (an STK query) about a payment still pending,
 * and its final answer is applied as reconciliation applies one (reconciler.ts applyQueryAnswer,
 * through decide-outcome.ts). A query answers "being processed" while the prompt is open
 * (docs/daraja-protocol.md §5), so a payer who has paid learns it as soon as M-PESA knows.
 *
 * Each check costs a Daraja request, so it is limited: per payment, once in each CHECK_GAP_S window
 * and CHECKS_PER_PAYMENT in an hour's window; per address, CHECKS_PER_ADDRESS in a minute's. The
 * windows are fixed, as every limit's here (two checks can come a moment apart across a window's
 * end, never more than one a window). The counters are kept in
 * `rate_limits` (docs/decisions/002-limits-in-the-database.md), counted in one commit: a check
 * refused by any of them counts against none.
 */
import type { Kysely } from 'kysely';
import type { CheckFound } from '@mpesa/shared/contract-check';
import { checksSpent, checkTooSoon, tooManyChecks } from '../../errors.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { Database, TransactionRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { countHit, deleteEndedWindows } from '../../limits/rate-limit.repository.ts';
import type { PaymentDeps } from '../payments/index.ts';
import { applyQueryAnswer } from './reconciler.ts';

/** At most one check of a payment in each window of this many seconds. */
export const CHECK_GAP_S = 10;
/** Checks of one payment in all (within CHECKS_WINDOW_S, longer than any payment stays pending). */
export const CHECKS_PER_PAYMENT = 6;
const CHECKS_WINDOW_S = 3600;
/** Checks from one address a minute, whatever the payment. */
export const CHECKS_PER_ADDRESS = 20;
const ADDRESS_WINDOW_S = 60;

const GAP_PREFIX = 'check-gap|';
const PAYMENT_PREFIX = 'check-all|';
const ADDRESS_PREFIX = 'check-from|';

interface Counter {
  prefix: string;
  key: string;
  max: number;
  windowS: number;
  refuse: (retryAfterS: number) => Error;
}

/** What a check found (the caller reads the payment afterwards, as its page shows it). */
export interface CheckOutcome {
  found: CheckFound;
}

/**
 * Checks payment `id` with M-PESA for a payer, from `address` (limitKeyFor). The caller reads the
 * payment afterwards, as its page shows it.
 */
export async function checkWithMpesa(
  deps: PaymentDeps,
  row: TransactionRow,
  address: string,
): Promise<CheckOutcome> {
  // Settled already: nothing to ask, and nothing counted.
  if (row.status !== 'pending') return { found: 'settled' };
  await countCheck(deps.db, row.id, address, deps.now());
  // The push was never acknowledged: there is nothing M-PESA could be asked about yet.
  if (!row.checkout_request_id) return { found: 'not_sent' };

  let answer;
  try {
    answer = await deps.daraja.stkQuery(row.checkout_request_id);
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    deps.log.warn(
      { transactionId: row.id, kind: error.kind, errorCode: error.errorCode },
      'payer check: stk query failed',
    );
    return { found: 'unreachable' };
  }
  if (answer.state === 'pending') return { found: 'processing' };
  await applyQueryAnswer(deps, row.id, answer);
  deps.log.info({ transactionId: row.id, resultCode: answer.resultCode }, 'payer check found');
  return { found: 'result' };
}

/** Counts one check against each limit, refusing it (and counting none) once one is spent. */
async function countCheck(db: Kysely<Database>, id: string, address: string, now: Date) {
  const counters: Counter[] = [
    {
      prefix: ADDRESS_PREFIX,
      key: address,
      max: CHECKS_PER_ADDRESS,
      windowS: ADDRESS_WINDOW_S,
      refuse: tooManyChecks,
    },
    { prefix: GAP_PREFIX, key: id, max: 1, windowS: CHECK_GAP_S, refuse: checkTooSoon },
    {
      prefix: PAYMENT_PREFIX,
      key: id,
      max: CHECKS_PER_PAYMENT,
      windowS: CHECKS_WINDOW_S,
      refuse: checksSpent,
    },
  ];
  await transact(db, async (trx) => {
    for (const counter of counters) {
      const windowMs = counter.windowS * 1000;
      const windowIndex = Math.floor(now.getTime() / windowMs);
      const hits = await countHit(trx, counter.prefix + counter.key, windowIndex);
      if (hits > counter.max) {
        // Until this counter's window ends.
        throw counter.refuse(Math.ceil((windowMs - (now.getTime() % windowMs)) / 1000));
      }
      // Counters of ended windows are not kept for ever.
      await deleteEndedWindows(trx, counter.prefix, windowIndex);
    }
  });
}
