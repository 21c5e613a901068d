/**
 * Starting a payment and reading the history. Routes call these; these call the repository and the
 * Daraja client.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { maskCheckoutId, maskPhone } from '@mpesa/shared';
import type { InitiatePayment, InitiatePaymentResponse, Transaction } from '@mpesa/shared/contract';
import {
  AppError,
  answerNotRecorded,
  mpesaNoAnswer,
  rateLimited,
  transactionNotFound,
} from '../errors.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { DarajaError } from '../daraja/daraja-error.ts';
import type { DarajaClient, StkPushAck } from '../daraja/daraja-client.ts';
import type { DialectName } from '../db/create-db.ts';
import type { Database } from '../db/schema.ts';
import { accountReferenceFor, transactionDescFor } from './daraja-text.ts';
import { busyPhoneError, payerErrorFor } from './initiation-errors.ts';
import { toTransactionDto } from './transaction-dto.ts';
import { flag, recordEvent, transition } from './transaction-outcome.ts';
import * as repo from './transactions.repository.ts';
import * as locks from './phone-locks.repository.ts';
import { countHit } from '../limits/rate-limit.repository.ts';
import { markKeyUsed } from './idempotency.ts';
import { transact } from '../db/transact.ts';

export interface PaymentDeps {
  db: Kysely<Database>;
  dialect: DialectName;
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
}

const later = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();

/** The per-address limit on payment requests, counted with the payment it lets through. */
export interface RequestLimit {
  /** Who is counted: the route and the client's address (limitKeyFor). */
  key: string;
  /** Requests allowed per window (0: no limit). */
  max: number;
  windowS: number;
}

export async function initiatePayment(
  deps: PaymentDeps,
  input: InitiatePayment,
  limit?: RequestLimit,
  /** The request's Idempotency-Key, already taken (idempotency.ts): it is told the payment's id. */
  idempotencyKey?: string,
): Promise<InitiatePaymentResponse> {
  const id = randomUUID();
  const now = deps.now();
  const createdAt = now.toISOString();

  // Saved before Safaricom is called: whatever happens next, the attempt exists. In the same
  // database transaction the phone's lock is taken, so that no one can send a second prompt to a
  // phone whose first is still open, from this instance or any other.
  await transact(deps.db, async (trx) => {
    // The address's count goes up with the payment it lets through, in the same commit: a request
    // refused for any reason (the limit itself, a busy phone) leaves it as it was.
    if (limit && limit.max > 0) {
      const hits = await countHit(
        trx,
        limit.key,
        Math.floor(now.getTime() / (limit.windowS * 1000)),
      );
      if (hits > limit.max) {
        const windowMs = limit.windowS * 1000;
        // Until this address's window ends.
        throw rateLimited(Math.ceil((windowMs - (now.getTime() % windowMs)) / 1000));
      }
    }
    await repo.insertTransaction(trx, {
      id,
      reference: input.reference,
      description: input.description,
      phone_number: input.phoneNumber,
      amount: input.amount,
      status: 'pending',
      merchant_request_id: null,
      checkout_request_id: null,
      result_code: null,
      response_description: null,
      customer_message: null,
      mpesa_receipt_number: null,
      transaction_date: null,
      created_at: createdAt,
      updated_at: createdAt,
      next_check_at: later(now, deps.reconcileAfterS * 1000),
      lease_owner: null,
      lease_until: null,
      flagged_reason: null,
    });
    // Held while the push may be on its way; cut back to the cooldown once it has ended.
    const locked = await locks.acquirePhoneLock(
      trx,
      input.phoneNumber,
      id,
      createdAt,
      later(now, Math.max(deps.phoneCooldownS * 1000, deps.pushDeadlineMs)),
    );
    if (!locked) {
      const holder = await locks.findPhoneLockHolder(trx, input.phoneNumber);
      throw busyPhoneError(holder, now);
    }
    await recordEvent(trx, id, {
      source: 'initiation',
      from: null,
      to: 'pending',
      note: 'saved before the STK push',
      at: createdAt,
    });
    // In the same commit: a key that names no payment had none saved under it (idempotency.ts).
    if (idempotencyKey !== undefined) await markKeyUsed(trx, idempotencyKey, id);
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
  const cooldownEnds = later(now, deps.phoneCooldownS * 1000);
  try {
    const ack = await deps.daraja.stkPush({
      phoneNumber: input.phoneNumber,
      amount: input.amount,
      accountReference: accountReferenceFor(input.reference),
      transactionDesc: transactionDescFor(input.description),
      callbackUrl: deps.callbackUrl,
    });
    const at = deps.now().toISOString();
    await transact(deps.db, async (trx) => {
      const attached = await repo.attachDarajaIds(trx, id, ack, {
        responseDescription: ack.responseDescription,
        customerMessage: ack.customerMessage,
        at,
      });
      if (attached) {
        await recordEvent(trx, id, {
          source: 'initiation',
          from: 'pending',
          to: 'pending',
          note: 'accepted by M-PESA',
          at,
        });
      } else {
        await flagForeignCallback(trx, id, ack, at);
      }
      await locks.holdPhoneUntil(trx, input.phoneNumber, id, cooldownEnds);
    });
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
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    const at = deps.now().toISOString();
    if (error.kind === 'unknown') {
      // The request may have reached Safaricom and the payer may be looking at a prompt right
      // now: the transaction stays pending for reconciliation instead of being guessed.
      await transact(deps.db, async (trx) => {
        await recordEvent(trx, id, {
          source: 'initiation',
          from: 'pending',
          to: 'pending',
          note: `${repo.OUTCOME_UNKNOWN_NOTE}${error.message}`,
          at,
        });
        await locks.holdPhoneUntil(trx, input.phoneNumber, id, cooldownEnds);
      });
      deps.log.warn({ transactionId: id, err: error }, 'stk push outcome unknown');
      throw mpesaNoAnswer(id);
    }
    const reason =
      error.kind === 'rejected'
        ? (error.errorMessage ?? error.message)
        : 'M-PESA could not be reached; no payment request was sent';
    await transact(deps.db, async (trx) => {
      await transition(
        trx,
        { id, status: 'pending' },
        'failed',
        { response_description: reason },
        {
          source: 'initiation',
          payload: JSON.stringify({
            errorCode: error.errorCode,
            errorMessage: error.errorMessage,
            httpStatus: error.httpStatus,
          }),
          at,
        },
      );
      // No prompt was sent, so the phone is free for the next attempt.
      await locks.holdPhoneUntil(trx, input.phoneNumber, id, at);
    });
    deps.log.warn(
      { transactionId: id, errorCode: error.errorCode, kind: error.kind },
      'stk push refused',
    );
    throw payerErrorFor(error, id);
  }
}

/**
 * Daraja acknowledged this push with one CheckoutRequestID after a success callback with another was
 * matched to it by phone and amount: that callback was for another push. A person must sort it out.
 */
async function flagForeignCallback(
  db: Kysely<Database>,
  id: string,
  ack: StkPushAck,
  at: string,
): Promise<void> {
  const row = await repo.findTransactionById(db, id);
  if (!row) return;
  await flag(
    db,
    row,
    `M-PESA acknowledged this request as ${maskCheckoutId(ack.checkoutRequestId)}, but a callback for ` +
      `${maskCheckoutId(row.checkout_request_id ?? '')} had already been matched to it by phone and amount`,
    // The acknowledgement in full: its CheckoutRequestID is the one to ask M-PESA about.
    { source: 'initiation', payload: JSON.stringify(ack), at },
  );
}

export async function getTransaction(
  deps: Pick<PaymentDeps, 'db'>,
  id: string,
): Promise<Transaction> {
  // Our ids are printable ASCII; anything else cannot exist (and PostgreSQL refuses NUL outright).
  const row = /^[\x21-\x7e]+$/.test(id) ? await repo.findTransactionById(deps.db, id) : undefined;
  if (!row) throw transactionNotFound();
  return toTransactionDto(row);
}
