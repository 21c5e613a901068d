/**
 * Carries out what decide-outcome.ts decides about a report on a payment (a callback, an STK query
 * answer, reconciliation giving up), inside the caller's database transaction, and records it as an
 * event. Nothing here decides: every rule is in the decision.
 */
import type { Kysely } from 'kysely';
import type { EventKind, TransactionStatus } from '@mpesa/shared';
import type {
  Database,
  EventSource,
  NewTransactionEventRow,
  TransactionPatch,
  TransactionRow,
} from '../../db/schema.ts';
import type { PaymentWrites } from './payment-writes.ts';
import { sortableId } from '../../lib/sortable-id.ts';
import { decide, flagged } from './decide-outcome.ts';
import type { Decision, EventPlan, OutcomeResult, Report } from './decision.ts';
import { isOpen } from './transaction-lifecycle.ts';
import * as repo from './transactions.repository.ts';
import { statusEvent, tellOfPayment } from './payment-events.ts';

type Db = Kysely<Database>;

/** The events that set a payment aside for a person's review: the shop hears of each. */
const FLAGGING_KINDS: ReadonlySet<EventKind> = new Set(['flagged', 'lifted_flagged']);

export type { OutcomeResult } from './decision.ts';

/** Where an event came from, and what it carries. */
export interface EventContext {
  source: EventSource;
  /** The message as received (a callback, a query answer, Daraja's refusal), if any. */
  payload?: string | null;
  at: string;
}

/** What `recordEvent` records. */
export type EventToRecord = EventContext & {
  kind: EventKind;
  from: TransactionStatus | null;
  to: TransactionStatus;
  note?: string | null;
  reason?: string | null;
};

/** The row `recordEvent` inserts. */
export function eventRow(transactionId: string, event: EventToRecord): NewTransactionEventRow {
  return {
    id: sortableId(),
    transaction_id: transactionId,
    at: event.at,
    source: event.source,
    from_status: event.from,
    to_status: event.to,
    kind: event.kind,
    reason: event.reason ?? null,
    note: event.note ?? null,
    payload: event.payload ?? null,
  };
}

export async function recordEvent(
  db: Db,
  transactionId: string,
  event: EventToRecord,
): Promise<void> {
  await repo.insertEvent(db, eventRow(transactionId, event));
}

/** Moves a transaction from `from` to `to` with `patch`, and records it; false if someone moved it first. */
export async function transition(
  writes: PaymentWrites,
  db: Db,
  row: Pick<TransactionRow, 'id' | 'status'>,
  to: TransactionStatus,
  patch: TransactionPatch,
  event: EventContext & EventPlan,
): Promise<boolean> {
  const fullPatch: TransactionPatch = {
    ...patch,
    status: to,
    updated_at: event.at,
    ...(to === 'pending' ? {} : { next_check_at: null, lease_owner: null, lease_until: null }),
  };
  const { moved, endpoints } = await writes.move(
    db,
    row,
    fullPatch,
    eventRow(row.id, { ...event, from: row.status, to }),
  );
  // The shop's systems hear of it in the same transaction (features/payments/payment-events.ts),
  // when any endpoint is there to hear.
  if (moved && endpoints) await tellOfPayment(db, statusEvent(to), row.id, event.at);
  return moved;
}

/**
 * Carries a decision out on `row`: a `move` only if the row still has the status decided from, a
 * `keep` by patching (if anything) and recording the event.
 */
export async function carryOut(
  writes: PaymentWrites,
  db: Db,
  row: Pick<TransactionRow, 'id' | 'status'>,
  decision: Exclude<Decision, { kind: 'clear_flag' | 'refuse' }>,
  context: EventContext,
): Promise<OutcomeResult> {
  const event = { ...context, ...decision.event };
  const flagged = FLAGGING_KINDS.has(event.kind);
  if (decision.kind === 'move') {
    const moved = await transition(writes, db, row, decision.to, decision.patch, event);
    if (moved && flagged) await tellOfPayment(db, 'payment.flagged', row.id, context.at);
    return moved ? decision.result.moved : decision.result.raced;
  }
  if (decision.patch) {
    await repo.updateTransactionFrom(db, row.id, row.status, {
      ...decision.patch,
      updated_at: context.at,
    });
  }
  await recordEvent(db, row.id, { ...event, from: row.status, to: row.status });
  if (flagged) await tellOfPayment(db, 'payment.flagged', row.id, context.at);
  return decision.result;
}

/** Flags a payment for a person to review, keeping its status (decide-outcome.ts `flagged`). */
export async function flag(
  writes: PaymentWrites,
  db: Db,
  row: TransactionRow,
  reason: string,
  context: EventContext,
): Promise<void> {
  await carryOut(writes, db, row, narrow(flagged(row, reason)), context);
}

/** Decides what a report does to `row` and carries it out. */
export async function applyOutcome(
  writes: PaymentWrites,
  db: Db,
  row: TransactionRow,
  report: Exclude<Report, { kind: 'review' }>,
  context: Omit<EventContext, 'source'>,
): Promise<OutcomeResult> {
  // Where the current status came from: an earlier callback makes a new one a contradiction. A
  // callback delivered again changes nothing whatever it was (decide-outcome.ts), so it is not
  // asked: one statement fewer for every redelivery.
  const redelivered = report.kind === 'callback' && report.redelivered;
  const statusSource =
    isOpen(row.status) || redelivered ? null : await repo.sourceOfStatus(db, row.id, row.status);
  const decision = narrow(decide({ ...row, statusSource }, report));
  const source: EventSource = report.kind === 'gave_up' ? 'reconciliation' : report.kind;
  return carryOut(writes, db, row, decision, { ...context, source });
}

/** Reports from M-PESA and reconciliation are never refused, nor clear a flag. */
function narrow(decision: Decision): Exclude<Decision, { kind: 'clear_flag' | 'refuse' }> {
  if (decision.kind === 'clear_flag' || decision.kind === 'refuse') {
    throw new Error(`a report from M-PESA cannot ${decision.kind}`);
  }
  return decision;
}
