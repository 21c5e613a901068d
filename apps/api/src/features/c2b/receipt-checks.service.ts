/**
 * Receipt checks (docs/product.md §11): a till or paybill payment whose confirmation never came is
 * found by the receipt on the payer's SMS. M-PESA is asked by transaction status (docs/daraja-
 * protocol.md §M5); its Result (features/c2b/receipt-status.callback.ts) records the payment exactly
 * as a confirmation would (c2b-payments.service.ts), so a confirmation and a check crossing record
 * it once.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ReceiptCheck } from '@mpesa/shared/contract';
import type { CallbackUrlFor } from '../../callbacks/callback-paths.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import type { Database, ReceiptCheckRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { tooManyChecks } from '../../errors.ts';
import { c2bNotSetUp, receiptCheckNotFound } from './c2b-refusals.ts';
import { isOwnId, MAX_LENGTH } from '../../lib/stored-lengths.ts';
import { countHit, deleteEndedWindows } from '../../limits/rate-limit.repository.ts';
import * as repo from './c2b.repository.ts';
import type { C2bSettings } from './validation-decision.ts';

/** Checks one address may ask for in a minute: each costs a Daraja request. */
export const RECEIPT_CHECKS_PER_ADDRESS = 10;
const ADDRESS_WINDOW_S = 60;
const ADDRESS_PREFIX = 'receipt-check|';

export interface ReceiptCheckDeps {
  db: Kysely<Database>;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Undefined (or without an initiator): M-PESA cannot be asked. */
  money: DarajaMoneyClient | undefined;
  settings: C2bSettings | undefined;
  callbackUrlFor: CallbackUrlFor;
}

export function toReceiptCheckDto(row: ReceiptCheckRow): ReceiptCheck {
  return {
    id: row.id,
    receipt: row.receipt,
    status: row.status,
    transactionId: row.transaction_id,
    resultCode: row.result_code,
    requestedAt: row.created_at,
  };
}

/** Counts a check against the address's allowance, refusing it once spent. */
async function countCheck(db: Kysely<Database>, address: string, now: Date): Promise<void> {
  const windowMs = ADDRESS_WINDOW_S * 1000;
  const windowIndex = Math.floor(now.getTime() / windowMs);
  await transact(db, async (trx) => {
    const hits = await countHit(trx, ADDRESS_PREFIX + address, windowIndex);
    if (hits > RECEIPT_CHECKS_PER_ADDRESS) {
      throw tooManyChecks(Math.ceil((windowMs - (now.getTime() % windowMs)) / 1000));
    }
    await deleteEndedWindows(trx, ADDRESS_PREFIX, windowIndex);
  });
}

/**
 * Checks `receipt` for `requestedBy` (a name as the audit trail writes it), from `address`
 * (limitKeyFor). A receipt already in the history is found at once, without asking M-PESA.
 */
export async function startReceiptCheck(
  deps: ReceiptCheckDeps,
  receipt: string,
  requestedBy: string,
  address: string,
): Promise<ReceiptCheck> {
  const { db, money, settings } = deps;
  if (!settings || !money?.canReverse) throw c2bNotSetUp();
  const now = deps.now();
  await countCheck(db, address, now);
  const at = now.toISOString();
  const known = await repo.findByReceipt(db, receipt);
  const row: ReceiptCheckRow = {
    id: randomUUID(),
    receipt,
    status: known ? 'found' : 'asked',
    requested_by: Array.from(requestedBy).slice(0, MAX_LENGTH.operatorName).join(''),
    originator_conversation_id: null,
    transaction_id: known?.id ?? null,
    result_code: null,
    created_at: at,
    updated_at: at,
  };
  await repo.insertReceiptCheck(db, row);
  if (known) return toReceiptCheckDto(row);
  try {
    const ack = await money.transactionStatus({
      transactionId: receipt,
      shortcode: settings.shortcode,
      resultUrl: deps.callbackUrlFor('receipt-status'),
      queueTimeoutUrl: deps.callbackUrlFor('queue-timeout'),
      remarks: 'Receipt check',
    });
    await repo.setReceiptCheckQuery(db, row.id, ack.originatorConversationId, at);
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    deps.log.warn(
      { receiptCheckId: row.id, kind: error.kind, errorCode: error.errorCode },
      'receipt check: M-PESA could not be asked',
    );
    const resultCode = (error.errorCode ?? error.kind).slice(0, MAX_LENGTH.resultCode);
    await repo.settleReceiptCheck(db, row.id, {
      status: 'failed',
      transaction_id: null,
      result_code: resultCode,
      updated_at: deps.now().toISOString(),
    });
  }
  return getReceiptCheck(deps, row.id);
}

/**
 * How long a check waits for M-PESA's Result before it is told as failed: a transaction status
 * Result comes within seconds, and one lost (or a QueueTimeOutURL instead) would leave the
 * merchant waiting for ever. Only the answer says so: a Result that still comes records the
 * payment and the check is then found.
 */
export const RECEIPT_CHECK_NO_ANSWER_MS = 5 * 60_000;
export const NO_ANSWER = 'NO_ANSWER';

export async function getReceiptCheck(
  deps: Pick<ReceiptCheckDeps, 'db' | 'now'>,
  id: string,
): Promise<ReceiptCheck> {
  const row = isOwnId(id) ? await repo.findReceiptCheck(deps.db, id) : undefined;
  if (!row) throw receiptCheckNotFound();
  const waited = deps.now().getTime() - Date.parse(row.created_at);
  if (row.status === 'asked' && waited > RECEIPT_CHECK_NO_ANSWER_MS) {
    return { ...toReceiptCheckDto(row), status: 'failed', resultCode: NO_ANSWER };
  }
  return toReceiptCheckDto(row);
}
