/**
 * Starting a payment (the prompt sent through Daraja, its answer recorded) and reading one payment
 * as its page shows it. Routes call these; these call the repository and the Daraja client.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { maskCheckoutId, maskPhone } from '@mpesa/shared';
import type {
  InitiatePayment,
  InitiatePaymentResponse,
  Transaction,
  TransactionView,
} from '@mpesa/shared/contract';
import { AppError, answerNotRecorded, mpesaNoAnswer, transactionNotFound } from '../../errors.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { DarajaClient, StkPushAck } from '../../daraja/daraja-client.ts';
import type { DialectName } from '../../db/create-db.ts';
import type { Database } from '../../db/schema.ts';
import type { PaymentWrites } from './payment-writes.ts';
import { accountReferenceFor, transactionDescFor } from './daraja-text.ts';
import { payerErrorFor } from './initiation-errors.ts';
import { later, savePending, type LinkOfPayment, type RequestLimit } from './save-pending.ts';
import { merchantView, toTransactionDto } from './transaction-dto.ts';
import { recordAcknowledgement, recordPushFailure, type SavedPush } from './push-answers.ts';
import * as repo from './transactions.repository.ts';
import { transact } from '../../db/transact.ts';
import { findRefundOf } from './transactions.repository.ts';
import { refundView, type RefundPolicy } from './refund-rules.ts';

export interface PaymentDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The hot writes in the database's own form (payment-writes.ts), chosen once at start-up. */
  writes: PaymentWrites;
  daraja: DarajaClient;
  /** The full URL Daraja posts results to, secret included. */
  callbackUrl: string;
  log: FastifyBaseLogger;
  now: () => Date;
  /** A new push to a phone waits at least this long after the previous one. */
  phoneCooldownS: number;
  /** A pending transaction is first checked with Daraja this long after it was created. */
  reconcileAfterS: number;
  /**
   * The longest a push can take (a token, the push, and both again after a refused token): until
   * then a push with no acknowledgement yet may still reach the payer's phone.
   */
  pushDeadlineMs: number;
  /** What the merchant's view says of refunds; none: refunds are not set up (refund-rules.ts). */
  refunds?: RefundPolicy;
}

export type { LinkOfPayment, RequestLimit } from './save-pending.ts';

/** A payment made through a payment link (features/links/). */
export interface ThroughLink {
  link: LinkOfPayment;
  /** The link's own checks (its limit), in the transaction that saves the payment, before it. */
  first?: (trx: Kysely<Database>, now: Date) => Promise<void>;
}

export async function initiatePayment(
  deps: PaymentDeps,
  input: InitiatePayment,
  limit?: RequestLimit,
  /** The request's Idempotency-Key, already taken (idempotency.ts): it is told the payment's id. */
  idempotencyKey?: string,
  /** The link it is paid through: the same payment, marked with its link. */
  through?: ThroughLink,
): Promise<InitiatePaymentResponse> {
  const id = randomUUID();
  const now = deps.now();
  const link = through?.link;

  // Saved before Safaricom is called: whatever happens next, the attempt exists. In the same
  // database transaction the phone's lock is taken, so that no one can send a second prompt to a
  // phone whose first is still open, from this instance or any other.
  // The address's count and the Idempotency-Key go with it (save-pending.ts).
  await transact(deps.db, async (trx) => {
    await through?.first?.(trx, now);
    await savePending(deps, trx, { input, id, now, limit, idempotencyKey, link });
  });

  try {
    return await pushSaved(deps, input, id, now);
  } catch (error) {
    if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
      deps.log.warn({ transactionId: id, err: error }, 'stk push outcome not recorded');
      throw answerNotRecorded(id, error);
    }
    throw error;
  }
}

/** Sends the push for the payment saved as `id`, and records what M-PESA answered. */
async function pushSaved(
  deps: PaymentDeps,
  input: InitiatePayment,
  id: string,
  now: Date,
): Promise<InitiatePaymentResponse> {
  const saved: SavedPush = {
    id,
    phoneNumber: input.phoneNumber,
    cooldownEnds: later(now, deps.phoneCooldownS * 1000),
  };
  let ack: StkPushAck;
  try {
    ack = await deps.daraja.stkPush({
      phoneNumber: input.phoneNumber,
      amount: input.amount,
      accountReference: accountReferenceFor(input.reference),
      transactionDesc: transactionDescFor(input.description),
      callbackUrl: deps.callbackUrl,
    });
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    await recordPushFailure(deps, saved, error);
    // Unknown: the payment stays pending, and is reconciled; else no prompt was sent.
    throw error.kind === 'unknown' ? mpesaNoAnswer(id) : payerErrorFor(error, id);
  }
  await recordAcknowledgement(deps, saved, ack);
  deps.log.info(
    {
      transactionId: id,
      checkoutRequestId: maskCheckoutId(ack.checkoutRequestId),
      phone: maskPhone(input.phoneNumber),
    },
    'stk push accepted',
  );
  return {
    success: true,
    message: 'STK Push initiated successfully',
    transactionId: id,
    checkoutRequestId: ack.checkoutRequestId,
    customerMessage: ack.customerMessage,
  };
}

/** The payment, or 404 in our words (an id that cannot be ours is simply not found). */
export async function findTransaction(deps: Pick<PaymentDeps, 'db'>, id: string) {
  const row = await repo.findTransactionById(deps.db, id);
  if (!row) throw transactionNotFound();
  return row;
}

export async function getTransaction(
  deps: Pick<PaymentDeps, 'db'>,
  id: string,
): Promise<Transaction> {
  return toTransactionDto(await findTransaction(deps, id));
}

/**
 * The merchant's view of a payment: with its flag, the callbacks M-PESA sent for it, and its
 * refund (whether the reader may refund it, or why not).
 */
export async function getMerchantView(
  deps: Pick<PaymentDeps, 'db' | 'now' | 'refunds'>,
  id: string,
  reader: { owner: boolean; reviews?: boolean },
): Promise<TransactionView> {
  const row = await findTransaction(deps, id);
  const callbacks = await repo.listCallbacksFor(deps.db, row);
  const policy = deps.refunds ?? NO_REFUNDS;
  const refund = await findRefundOf(deps.db, row.id);
  return merchantView(row, callbacks, reader, refundView(row, refund, policy, reader, deps.now()));
}

/** Where no refund policy is given: nothing can be refunded (not set up). */
const NO_REFUNDS: RefundPolicy = { maxAgeDays: 0, canReverse: false };
