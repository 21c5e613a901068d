/**
 * Payment links (issue 38): made by an owner or a cashier, listed with what each collected,
 * switched off; and paid by the payer from its page. A link's payment is an ordinary payment
 * (features/payments/ `initiatePayment`: the same prompt, limits, idempotency and page), marked
 * with its link; a one-payment link is held to one payment when the payment is saved, under a lock
 * on the link (links.repository.ts `lockLink`).
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { messages } from '@mpesa/shared';
import type { InitiatePaymentResponse } from '@mpesa/shared/contract';
import {
  LINK_CODE_LENGTH,
  type Link,
  type LinkStatus,
  type LinkWithPayments,
  type PayerLink,
  type createLinkBodySchema,
  type payLinkBodySchema,
} from '@mpesa/shared/contract-links';
import type { z } from 'zod';
import { recordAudit } from '../../audit/audit.ts';
import type { Database, PaymentLinkRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { validationError } from '../../errors.ts';
import { countHit, deleteEndedWindows } from '../../limits/rate-limit.repository.ts';
import { initiatePayment, type PaymentDeps, type RequestLimit } from '../payments/index.ts';
import {
  linkAmountBelow,
  linkBeingPaid,
  linkExpired,
  linkNotFound,
  linkOff,
  linkPaid,
  linkTooBusy,
  tooManyLinks,
} from './link-refusals.ts';
import * as repo from './links.repository.ts';

export interface LinkDeps {
  db: Kysely<Database>;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The payment path a link's payment takes. */
  payments: PaymentDeps;
  /** The shop's name as the payer's page shows it (BUSINESS_NAME). */
  shopName: string | undefined;
  /** LINKS_PER_HOUR and LINK_PAYMENTS_PER_MINUTE (0: no limit). */
  limits: { linksPerHour: number; paymentsPerMinute: number };
}

/** Who makes or switches off a link: a signed-in operator, and the address they came from. */
export interface LinkActor {
  operatorId: string;
  name: string;
  address: string;
}

/** The most links the list shows, newest first. */
const LIST_SIZE = 200;
/** The most payments a link's own view shows, newest first. */
const PAYMENTS_SHOWN = 200;
/** A code's letters: no 0, o, 1, l, to be read aloud or typed from paper. */
const CODE_LETTERS = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A new code: 12 of 32 letters, 60 random bits, never guessed. */
function newCode(): string {
  let code = '';
  for (let i = 0; i < LINK_CODE_LENGTH; i++) code += CODE_LETTERS[randomInt(CODE_LETTERS.length)];
  return code;
}

interface Totals {
  paidCount: number;
  collected: number;
}

/** What the link shows now: switched off, paid (one payment), expired, or taking payments. */
function statusOf(row: PaymentLinkRow, paidCount: number, now: Date): LinkStatus {
  if (row.switched_off_at !== null) return 'off';
  if (row.one_only === 1 && paidCount > 0) return 'paid';
  if (row.expires_at !== null && row.expires_at <= now.toISOString()) return 'expired';
  return 'active';
}

function toLink(row: PaymentLinkRow, totals: Totals | undefined, now: Date): Link {
  const { paidCount, collected } = totals ?? { paidCount: 0, collected: 0 };
  return {
    id: row.id,
    code: row.code,
    amount: row.amount,
    minAmount: row.min_amount,
    purpose: row.purpose,
    reference: row.reference,
    oneOnly: row.one_only === 1,
    expiresAt: row.expires_at,
    status: statusOf(row, paidCount, now),
    createdBy: row.created_by,
    createdAt: row.created_at,
    paidCount,
    collected,
  };
}

/** Counts one hit against `key` in its window; over `max`, the refusal `refuse` makes. */
async function countAgainst(
  trx: Kysely<Database>,
  { prefix, id }: { prefix: string; id: string },
  { max, windowS, now }: { max: number; windowS: number; now: Date },
  refuse: (retryAfterS: number) => Error,
): Promise<void> {
  if (max <= 0) return;
  const windowMs = windowS * 1000;
  const windowIndex = Math.floor(now.getTime() / windowMs);
  const hits = await countHit(trx, `${prefix}${id}`, windowIndex);
  // Every key of the prefix counts in windows of this length: the ended ones are kept no longer.
  await deleteEndedWindows(trx, prefix, windowIndex);
  if (hits > max) throw refuse(Math.ceil((windowMs - (now.getTime() % windowMs)) / 1000));
}

export async function createLink(
  deps: LinkDeps,
  input: z.output<typeof createLinkBodySchema>,
  actor: LinkActor,
): Promise<Link> {
  const now = deps.now();
  const { linksPerHour } = deps.limits;
  const row: PaymentLinkRow = {
    id: randomUUID(),
    code: newCode(),
    // A link with neither is the payer's choice from the smallest amount M-PESA takes.
    amount: input.amount ?? null,
    min_amount: input.amount === undefined ? (input.minAmount ?? 1) : null,
    purpose: input.purpose,
    reference: input.reference,
    one_only: input.oneOnly ? 1 : 0,
    expires_at:
      input.expiresInDays === undefined
        ? null
        : new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString(),
    switched_off_at: null,
    switched_off_by: null,
    created_by: actor.name,
    created_by_id: actor.operatorId,
    created_at: now.toISOString(),
  };
  await transact(deps.db, async (trx) => {
    await countAgainst(
      trx,
      { prefix: 'links|operator:', id: actor.operatorId },
      { max: linksPerHour, windowS: 3600, now },
      (wait) => tooManyLinks(linksPerHour, wait),
    );
    await repo.insertLink(trx, row);
    await recordAudit(trx, {
      at: now,
      actorKind: 'operator',
      actor: actor.name,
      action: 'link_created',
      target: row.id,
      detail: linkDetail(row),
      address: actor.address,
    });
  });
  return toLink(row, undefined, now);
}

/** The audit line's few words: the code, how much, and what for. */
function linkDetail(row: PaymentLinkRow): string {
  const amount = row.amount !== null ? `${row.amount} KES` : `at least ${row.min_amount} KES`;
  return `${row.code}: ${amount} for ${row.purpose} (${row.reference})${row.one_only ? ', one payment' : ''}`;
}

export async function listLinkDtos(deps: Pick<LinkDeps, 'db' | 'now'>): Promise<Link[]> {
  const rows = await repo.listLinks(deps.db, LIST_SIZE);
  const totals = await repo.totalsOf(
    deps.db,
    rows.map((row) => row.id),
  );
  const now = deps.now();
  return rows.map((row) => toLink(row, totals.get(row.id), now));
}

async function findLink(db: Kysely<Database>, id: string): Promise<PaymentLinkRow> {
  const row = await repo.findLinkById(db, id);
  if (!row) throw linkNotFound();
  return row;
}

/** One link with the payments made through it (the shop's people see the payers' numbers). */
export async function getLinkDto(
  deps: Pick<LinkDeps, 'db' | 'now'>,
  id: string,
): Promise<LinkWithPayments> {
  const row = await findLink(deps.db, id);
  const totals = await repo.totalsOf(deps.db, [id]);
  const payments = await repo.paymentsOf(deps.db, id, PAYMENTS_SHOWN);
  return {
    ...toLink(row, totals.get(id), deps.now()),
    payments: payments.map((payment) => ({
      transactionId: payment.id,
      amount: payment.amount,
      status: payment.status,
      phoneNumber: payment.phone_number,
      mpesaReceiptNumber: payment.mpesa_receipt_number,
      createdAt: payment.created_at,
    })),
  };
}

/** Switches a link off (again is no change); its audit line once. */
export async function switchOffLink(deps: LinkDeps, id: string, actor: LinkActor): Promise<Link> {
  const now = deps.now();
  const row = await findLink(deps.db, id);
  await transact(deps.db, async (trx) => {
    if (!(await repo.switchOff(trx, id, actor.name, now.toISOString()))) return;
    await recordAudit(trx, {
      at: now,
      actorKind: 'operator',
      actor: actor.name,
      action: 'link_switched_off',
      target: id,
      detail: linkDetail(row),
      address: actor.address,
    });
  });
  return (await listOne(deps, id)) ?? toLink(row, undefined, now);
}

/** One link as the list shows it, or undefined. */
export async function listOne(
  deps: Pick<LinkDeps, 'db' | 'now'>,
  id: string,
): Promise<Link | undefined> {
  const row = await repo.findLinkById(deps.db, id);
  if (!row) return undefined;
  const totals = await repo.totalsOf(deps.db, [id]);
  return toLink(row, totals.get(id), deps.now());
}

/** A link by its code, and what it shows now; 404 for a code that is none. */
async function linkByCode(deps: Pick<LinkDeps, 'db' | 'now'>, code: string) {
  const row = await repo.findLinkByCode(deps.db, code);
  if (!row) throw linkNotFound();
  const holder = row.one_only === 1 ? await repo.holderOf(deps.db, row.id) : undefined;
  const paid = holder !== undefined && holder.status !== 'pending' && holder.status !== 'unknown';
  return { row, holder, status: statusOf(row, paid ? 1 : 0, deps.now()) };
}

/** The payer's page: the shop, the amount, what it is for, whether it takes a payment. */
export async function payerLink(deps: LinkDeps, code: string): Promise<PayerLink> {
  const { row, status } = await linkByCode(deps, code);
  return {
    code: row.code,
    shopName: deps.shopName ?? null,
    amount: row.amount,
    minAmount: row.min_amount,
    purpose: row.purpose,
    reference: row.reference,
    status,
  };
}

/** The refusal of a one-payment link that a payment holds: paid, or being paid. */
const heldBy = (holder: { status: string }) =>
  holder.status === 'pending' || holder.status === 'unknown' ? linkBeingPaid() : linkPaid();

/**
 * Pays a link by the usual prompt. The link must take payments; a one-payment link that another
 * payment holds (paid, or may be) is refused before the prompt, and again in the transaction that
 * saves the payment, under the link's lock: of two payers at the same moment, the second is
 * refused and no prompt is sent.
 */
export async function payLink(
  deps: LinkDeps,
  code: string,
  body: z.output<typeof payLinkBodySchema>,
  addressLimit: RequestLimit,
  idempotencyKey?: string,
): Promise<InitiatePaymentResponse> {
  const { row, holder, status } = await linkByCode(deps, code);
  if (status === 'off') throw linkOff();
  if (status === 'expired') throw linkExpired();
  if (holder) throw heldBy(holder);
  const amount = amountFor(row, body.amount);
  const { paymentsPerMinute } = deps.limits;
  const oneOnly = row.one_only === 1;
  return initiatePayment(
    { ...deps.payments, log: deps.log },
    {
      phoneNumber: body.phoneNumber,
      amount,
      reference: row.reference,
      description: row.purpose,
    },
    addressLimit,
    idempotencyKey,
    {
      link: { id: row.id },
      first: async (trx, now) => {
        await countAgainst(
          trx,
          { prefix: 'link-pay|', id: row.id },
          { max: paymentsPerMinute, windowS: 60, now },
          linkTooBusy,
        );
        if (!oneOnly) return;
        await repo.lockLink(trx, row.id);
        const taken = await repo.holderOf(trx, row.id);
        if (taken) throw heldBy(taken);
      },
    },
  );
}

/** The link's fixed amount, or the payer's, at least the link's minimum. */
function amountFor(row: PaymentLinkRow, given: number | undefined): number {
  if (row.amount !== null) {
    if (given !== undefined && given !== row.amount) {
      throw validationError(
        `This link is for ${row.amount.toLocaleString('en-KE')} KES: send no amount, or that one`,
        'amount',
      );
    }
    return row.amount;
  }
  if (given === undefined) throw validationError(messages.amountRequired, 'amount');
  if (given < (row.min_amount ?? 1)) throw linkAmountBelow(row.min_amount ?? 1);
  return given;
}
