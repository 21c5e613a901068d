/**
 * Phone retention (PHONE_RETENTION_DAYS, docs/deployment.md): a job that masks, in place, the
 * payer's number of every settled payment created more than that many days ago, keeping its
 * amount, receipt, status and references.
 *
 * The masked form keeps the country code and the last four digits, `254*****5678`: the nine-digit
 * subscriber number's first five digits are hidden wherever it is stored, so the same replacement
 * masks the number in every form it takes (254712345678, 0712345678, a callback's PhoneNumber) and
 * in Daraja's CheckoutRequestID, which ends with it (docs/daraja-protocol.md §3.4), exactly as the
 * logs already mask that id (`maskCheckoutId`). Five hidden digits, as Safaricom's own masked
 * MSISDN hides four or five, are enough that the number no longer names a person, and the last
 * four still let a merchant tell a payer "the payment from the number ending 5678".
 *
 * Every instance runs it, as it runs the reconciler; it is safe with several (each takes payments
 * the others have not locked, and masking a masked payment changes nothing) and with the database
 * going away (a round that fails is tried again at the next one).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/create-db.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { startLoop, type BackgroundLoop } from '../../db/background-loop.ts';
import {
  deleteLocksOfMasked,
  maskPayment,
  nextUnclaimedCallbacks,
  nextUnmasked,
  nextUnmaskedPayouts,
  saveMaskedPayout,
  saveMaskedCallback,
  type Mask,
} from './phone-retention.repository.ts';

export interface RetentionDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  log: FastifyBaseLogger;
  now: () => Date;
  /** PHONE_RETENTION_DAYS. */
  days: number;
}

/**
 * Payments masked per transaction: each transaction holds its rows (and, on SQLite, the one
 * writer) for a few milliseconds, never a long lock, however many payments are due.
 */
export const RETENTION_BATCH = 200;

/** How often each instance looks for payments due to be masked. */
const INTERVAL_MS = 15 * 60_000;
/** The first round, soon after start-up. */
const FIRST_ROUND_MS = 10_000;

const DAY_MS = 86_400_000;

/**
 * What hides this number: its subscriber digits (after 254) but the last four, or, for a number
 * in any other form (none is stored, phone.ts normalises every one), all of it but the last four.
 */
export function maskFor(phone: string): Mask {
  const hide = /^254[0-9]{9}$/.test(phone) ? phone.slice(3) : phone;
  const kept = hide.length > 4 ? 4 : 0;
  const by = `${'*'.repeat(hide.length - kept)}${hide.slice(hide.length - kept)}`;
  return { hide, by, number: phone, numberBy: `"${phone.replace(hide, by)}"` };
}

/** 254712345678 → 254*****5678: the number as a masked payment keeps it. */
export function retainedPhone(phone: string): string {
  const mask = maskFor(phone);
  return phone.replace(mask.hide, mask.by);
}

/** Masks the next batch of due payments; returns how many were masked. */
export async function maskDueBatch(deps: RetentionDeps): Promise<number> {
  const now = deps.now();
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - deps.days * DAY_MS).toISOString();
  return transact(deps.db, async (trx) => {
    const due = await nextUnmasked(trx, deps.dialect, cutoff, RETENTION_BATCH);
    for (const row of due) {
      await maskPayment(trx, row, maskFor(row.phone_number), retainedPhone(row.phone_number), at);
    }
    return due.length;
  });
}

/**
 * Every payer's number in a text whose numbers are not known beforehand, masked as a payment's
 * are: in a CheckoutRequestID (which ends with the subscriber number), as a JSON number (which
 * becomes a string, so that the JSON stays valid), and written out (254…, or 07…/01…).
 */
export function maskNumbersIn(text: string): string {
  return text
    .replace(/(ws_CO_\d{17})\d{5}(\d{4})(?!\d)/g, '$1*****$2')
    .replace(/(:\s?)254[17]\d{4}(\d{4})(?!\.?\d)/g, '$1"254*****$2"')
    .replace(/(?<![\d*])254[17]\d{4}(\d{4})(?!\.?\d)/g, '254*****$1')
    .replace(/(?<![\d*])0[17]\d{4}(\d{4})(?!\.?\d)/g, '0*****$1');
}

/**
 * Masks the next batch of due callbacks that no payment claimed (an orphan's number is masked
 * with no payment's: by its form); returns how many.
 */
export async function maskUnclaimedBatch(deps: RetentionDeps): Promise<number> {
  const now = deps.now();
  const cutoff = new Date(now.getTime() - deps.days * DAY_MS).toISOString();
  return transact(deps.db, async (trx) => {
    const due = await nextUnclaimedCallbacks(trx, deps.dialect, cutoff, RETENTION_BATCH);
    for (const callback of due) {
      const checkout = callback.checkout_request_id;
      await saveMaskedCallback(
        trx,
        {
          id: callback.id,
          raw_body: maskNumbersIn(callback.raw_body),
          checkout_request_id: checkout === null ? null : maskNumbersIn(checkout),
        },
        now.toISOString(),
      );
    }
    return due.length;
  });
}

/** The payouts whose outcome is settled: nothing more is sent or asked about them. */
const SETTLED_PAYOUTS = ['succeeded', 'failed', 'declined'] as const;

/**
 * Masks the next batch of due payouts, as payments are masked: the payee's number, and the
 * receiver's public name M-PESA gave with it (`254705912645 - NICHOLAS JOHN SONGOK`), keeping the
 * amount, the receipt and the outcome. A till or a paybill names a business, with no number to
 * hide. Their Result bodies are masked with the callbacks no payment claimed. Returns how many.
 */
export async function maskPayeesBatch(deps: RetentionDeps): Promise<number> {
  const now = deps.now();
  const cutoff = new Date(now.getTime() - deps.days * DAY_MS).toISOString();
  return transact(deps.db, async (trx) => {
    const due = await nextUnmaskedPayouts(trx, cutoff, SETTLED_PAYOUTS, RETENTION_BATCH);
    for (const payout of due) {
      const phone = /^254[0-9]{9}$/.test(payout.payee);
      await saveMaskedPayout(trx, payout.id, {
        payee: phone ? retainedPhone(payout.payee) : payout.payee,
        receiver_name: payout.receiver_name === null ? null : maskNumbersIn(payout.receiver_name),
        payee_masked_at: now.toISOString(),
      });
    }
    return due.length;
  });
}

/**
 * One round: every due payment, a batch at a time, then the callbacks no payment claimed, then
 * the payouts' payees (payee-retention.ts), then the locks left behind. Returns how many payments and callbacks were masked.
 */
export async function maskDuePhones(
  deps: RetentionDeps,
  keepGoing: () => boolean = () => true,
): Promise<number> {
  let masked = 0;
  for (const batch of [maskDueBatch, maskUnclaimedBatch, maskPayeesBatch]) {
    for (;;) {
      const count = await batch(deps);
      masked += count;
      if (count < RETENTION_BATCH || !keepGoing()) break;
    }
  }
  await deleteLocksOfMasked(deps.db, deps.now().toISOString());
  return masked;
}

export function startPhoneRetention(deps: RetentionDeps): BackgroundLoop {
  return startLoop({
    log: deps.log,
    // Tried again next round: a database that went away is waited for, not reported as a fault.
    words: {
      unavailable: 'phone retention waits for the database',
      failed: 'phone retention round failed',
    },
    firstMs: FIRST_ROUND_MS,
    intervalMs: INTERVAL_MS,
    round: async (stopped) => {
      const masked = await maskDuePhones(deps, () => !stopped());
      if (masked > 0) deps.log.info({ masked }, 'phone numbers masked (PHONE_RETENTION_DAYS)');
    },
  });
}
