/**
 * The payment rules: start a payment, apply what Daraja reports, read the history.
 * Routes call these; these call the repository and the Daraja client.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { maskPhone, messages, type TransactionStatus } from '@mpesa/shared';
import type { InitiatePayment, InitiatePaymentResponse, Transaction } from '@mpesa/shared/contract';
import { AppError } from '../errors.ts';
import { DarajaError } from '../daraja/daraja-error.ts';
import type { DarajaClient } from '../daraja/daraja-client.ts';
import { parseStkCallback, type StkCallback } from '../daraja/callback-parser.ts';
import { statusForResultCode } from '../daraja/result-codes.ts';
import type { CallbackOutcome, Database, EventSource, TransactionRow } from '../db/schema.ts';
import { accountReferenceFor, transactionDescFor } from './daraja-text.ts';
import { payerErrorFor } from './initiation-errors.ts';
import { decideTransition } from './transaction-lifecycle.ts';
import { toTransactionDto } from './transaction-dto.ts';
import * as repo from './transactions.repository.ts';

export interface PaymentDeps {
  db: Kysely<Database>;
  daraja: DarajaClient;
  /** The full URL Daraja posts results to, secret included. */
  callbackUrl: string;
  log: FastifyBaseLogger;
  now: () => Date;
}

const iso = (deps: PaymentDeps) => deps.now().toISOString();

export async function initiatePayment(
  deps: PaymentDeps,
  input: InitiatePayment,
): Promise<InitiatePaymentResponse> {
  const id = randomUUID();
  const createdAt = iso(deps);
  // Saved before Safaricom is called: whatever happens next, the attempt exists.
  await deps.db.transaction().execute(async (trx) => {
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
    });
    await repo.insertEvent(trx, {
      id: randomUUID(),
      transaction_id: id,
      at: createdAt,
      source: 'initiation',
      from_status: null,
      to_status: 'pending',
      note: 'saved before the STK push',
      payload: null,
    });
  });

  try {
    const ack = await deps.daraja.stkPush({
      phoneNumber: input.phoneNumber,
      amount: input.amount,
      accountReference: accountReferenceFor(input.reference),
      transactionDesc: transactionDescFor(input.description),
      callbackUrl: deps.callbackUrl,
    });
    await deps.db
      .updateTable('transactions')
      .set({
        merchant_request_id: ack.merchantRequestId,
        checkout_request_id: ack.checkoutRequestId,
        response_description: ack.responseDescription,
        customer_message: ack.customerMessage,
        updated_at: iso(deps),
      })
      .where('id', '=', id)
      .execute();
    deps.log.info(
      {
        transactionId: id,
        checkoutRequestId: ack.checkoutRequestId,
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
    if (error.kind === 'unknown') {
      // The request may have reached Safaricom and the payer may be looking at a prompt right now:
      // the transaction stays pending for reconciliation instead of being guessed.
      await recordEvent(
        deps.db,
        id,
        'initiation',
        'pending',
        'pending',
        `outcome unknown: ${error.message}`,
      );
      deps.log.warn({ transactionId: id, err: error }, 'stk push outcome unknown');
      throw new AppError(
        504,
        'MPESA_NO_ANSWER',
        'M-PESA did not confirm the payment request. If a prompt reaches your phone you can still complete it; this payment will update on its own.',
      );
    }
    const reason =
      error.kind === 'rejected'
        ? (error.errorMessage ?? error.message)
        : 'M-PESA could not be reached; no payment request was sent';
    await transition(
      deps,
      id,
      'pending',
      'failed',
      'initiation',
      {
        response_description: reason,
      },
      JSON.stringify({
        errorCode: error.errorCode,
        errorMessage: error.errorMessage,
        httpStatus: error.httpStatus,
      }),
    );
    deps.log.warn(
      { transactionId: id, errorCode: error.errorCode, kind: error.kind },
      'stk push refused',
    );
    throw payerErrorFor(error);
  }
}

async function recordEvent(
  db: Kysely<Database>,
  transactionId: string,
  source: EventSource,
  from: TransactionStatus | null,
  to: TransactionStatus,
  note: string | null,
  payload: string | null = null,
  at = new Date().toISOString(),
): Promise<void> {
  await repo.insertEvent(db, {
    id: randomUUID(),
    transaction_id: transactionId,
    at,
    source,
    from_status: from,
    to_status: to,
    note,
    payload,
  });
}

/** Moves a transaction from `from` to `to` and records it, atomically; false if someone else moved it first. */
async function transition(
  deps: PaymentDeps,
  id: string,
  from: TransactionStatus,
  to: TransactionStatus,
  source: EventSource,
  patch: Partial<Omit<TransactionRow, 'id' | 'status' | 'updated_at'>>,
  payload: string | null,
  note: string | null = null,
): Promise<boolean> {
  const at = iso(deps);
  return deps.db.transaction().execute(async (trx) => {
    const moved = await repo.updateTransactionFrom(trx, id, from, {
      ...patch,
      status: to,
      updated_at: at,
    });
    if (moved) await recordEvent(trx, id, source, from, to, note, payload, at);
    return moved;
  });
}

export async function getTransaction(
  deps: Pick<PaymentDeps, 'db'>,
  id: string,
): Promise<Transaction> {
  const row = await repo.findTransactionById(deps.db, id);
  if (!row) throw new AppError(404, 'TRANSACTION_NOT_FOUND', messages.transactionNotFound);
  return toTransactionDto(row);
}

export async function listTransactions(
  deps: Pick<PaymentDeps, 'db'>,
  limit: number,
): Promise<Transaction[]> {
  const rows = await repo.listTransactions(deps.db, limit);
  return rows.map(toTransactionDto);
}

export interface CallbackResult {
  outcome: CallbackOutcome;
  transactionId: string | null;
}

/** What a result callback asks of the transaction's fields, besides its status. */
function callbackPatch(callback: StkCallback) {
  const patch: Partial<TransactionRow> = {
    result_code: callback.resultCode,
    response_description: callback.resultDesc,
  };
  if (callback.resultCode === '0' && callback.metadata) {
    patch.mpesa_receipt_number = callback.metadata.mpesaReceiptNumber;
    patch.transaction_date = callback.metadata.transactionDate;
  }
  return patch;
}

/** Success metadata that disagrees with our record means this is not the payment we asked for. */
function mismatchOf(row: TransactionRow, callback: StkCallback): string | null {
  if (callback.resultCode !== '0' || !callback.metadata) return null;
  const { amount, phoneNumber } = callback.metadata;
  if (amount !== null && amount !== Number(row.amount)) {
    return `amount ${amount} does not match ${row.amount}`;
  }
  if (phoneNumber !== null && phoneNumber !== row.phone_number) {
    return `phone number ${maskPhone(phoneNumber)} does not match ${maskPhone(row.phone_number)}`;
  }
  return null;
}

/**
 * Applies Daraja's result callback. The raw body is always recorded, whatever it says; a duplicate
 * changes nothing; a callback for a CheckoutRequestID we never issued is kept as an orphan.
 */
export async function applyCallback(
  deps: PaymentDeps,
  rawBody: string,
  sourceIp: string | null,
): Promise<CallbackResult> {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    body = undefined;
  }
  const parsed = parseStkCallback(body);
  const receivedAt = iso(deps);

  if (!parsed.ok) {
    await repo.insertCallback(deps.db, {
      id: randomUUID(),
      received_at: receivedAt,
      checkout_request_id: null,
      transaction_id: null,
      source_ip: sourceIp,
      raw_body: rawBody,
      outcome: 'invalid',
    });
    deps.log.warn({ reason: parsed.reason }, 'callback rejected: not a Daraja STK callback');
    return { outcome: 'invalid', transactionId: null };
  }

  const callback = parsed.callback;
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findTransactionByCheckoutId(trx, callback.checkoutRequestId);
    let outcome: CallbackOutcome;
    if (!row) {
      outcome = 'orphan';
    } else {
      const to = statusForResultCode(callback.resultCode);
      const mismatch = mismatchOf(row, callback);
      const decision = decideTransition(
        row.status,
        to,
        'callback',
        row.result_code === callback.resultCode,
      );
      if (mismatch && decision.kind === 'apply') {
        outcome = 'mismatch';
        await recordEvent(
          trx,
          row.id,
          'callback',
          row.status,
          row.status,
          `flagged: ${mismatch}`,
          rawBody,
          receivedAt,
        );
        deps.log.error(
          { transactionId: row.id, mismatch },
          'callback does not match the transaction',
        );
      } else if (decision.kind === 'apply') {
        const moved = await repo.updateTransactionFrom(trx, row.id, row.status, {
          ...callbackPatch(callback),
          status: to,
          updated_at: receivedAt,
        });
        outcome = moved ? 'applied' : 'ignored';
        if (moved) {
          const note =
            row.status === 'pending' ? null : `late success callback lifted ${row.status}`;
          await recordEvent(trx, row.id, 'callback', row.status, to, note, rawBody, receivedAt);
        }
      } else {
        outcome = decision.kind === 'duplicate' ? 'duplicate' : 'ignored';
        const note =
          decision.kind === 'duplicate' ? 'duplicate callback' : `ignored: ${decision.reason}`;
        await recordEvent(
          trx,
          row.id,
          'callback',
          row.status,
          row.status,
          note,
          rawBody,
          receivedAt,
        );
      }
    }
    await repo.insertCallback(trx, {
      id: randomUUID(),
      received_at: receivedAt,
      checkout_request_id: callback.checkoutRequestId,
      transaction_id: row?.id ?? null,
      source_ip: sourceIp,
      raw_body: rawBody,
      outcome,
    });
    deps.log.info(
      { checkoutRequestId: callback.checkoutRequestId, resultCode: callback.resultCode, outcome },
      'callback received',
    );
    return { outcome, transactionId: row?.id ?? null };
  });
}
