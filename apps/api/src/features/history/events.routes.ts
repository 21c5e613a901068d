/**
 * A payment's timeline: its recorded events, oldest first, each told in a sentence a merchant
 * understands. The messages as received (callbacks, query answers, Daraja's refusals) stay in the
 * database: they may hold the payer's phone number. Only what they reported is told: the result,
 * M-PESA's own description of it, and the receipt.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { stripControlCharacters, type TransactionStatus } from '@mpesa/shared';
import {
  transactionEventsResponseSchema,
  type TransactionEvent,
} from '@mpesa/shared/contract-events';
import { parseStkCallback } from '../../daraja/callback-parser.ts';
import { statusForResultCode } from '../../daraja/result-codes.ts';
import { listTransactionEvents, type TimelineRow } from './events.repository.ts';
import { parsedPayload, short } from './event-text.ts';
import { describeC2bEvent, describeRefundEvent } from './money-event-sentences.ts';
import { getTransaction, type PaymentDeps } from '../payments/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusals } from '../../openapi/responses.ts';
import { SAMPLE_TIMELINE } from './history.examples.ts';
import { ACCESS_REFUSED, guardedSchema, type Gate, uncached } from '../operators/index.ts';

export interface TransactionEventRoutesOptions {
  deps: Pick<PaymentDeps, 'db'>;
  /** HISTORY_ACCESS=operators: an operator, or a key that reads payments (features/operators/require-operator.ts). */
  historyGuard?: Gate | undefined;
}

export const transactionEventRoutes: FastifyPluginAsyncZod<TransactionEventRoutesOptions> = async (
  app,
  { deps, historyGuard },
) => {
  app.get(
    '/mpesa/transactions/:id/events',
    {
      // The shop's: kept by no cache on the way.
      ...(historyGuard ? { onRequest: [uncached(), historyGuard.onRequest] } : {}),
      schema: guardedSchema(
        {
          summary: 'A payment’s timeline, in sentences',
          description:
            'What happened to the payment, oldest first: saved, accepted by M-PESA, each callback and ' +
            'query answer, reconciliation, a person’s review; for a till or paybill payment, how it ' +
            'came; a refund asked for and its outcome. Never the messages as received, which hold ' +
            'phone numbers, nor a payer’s name.',
          tags: ['History'],
          // As for one transaction: an id that cannot be ours is simply not found.
          params: z.object({ id: z.string().describe('The payment’s `transactionId`') }),
          response: {
            200: answer(transactionEventsResponseSchema, 'The events, oldest first.', {
              paid: {
                summary: 'A payment paid at the first prompt',
                value: { success: true, data: SAMPLE_TIMELINE.map(describeEvent) },
              },
            }),
            ...refusals([...PATH_REFUSALS, REFUSED.transactionNotFound, ...ACCESS_REFUSED]),
          },
        },
        historyGuard?.rule,
      ),
    },
    async (request) => {
      // The same 404, for the same ids, as GET /mpesa/transactions/:id.
      const transaction = await getTransaction(deps, request.params.id);
      const rows = await listTransactionEvents(deps.db, transaction._id);
      return { success: true as const, data: rows.map(describeEvent) };
    },
  );
};

/** Who reviewed a payment, as review.ts keeps it in the event. */
const reviewerSchema = z.object({ reviewer: z.string().nullable() });

/** What a callback or an STK query answer reported, read from the message as received. */
interface Reported {
  status: Exclude<TransactionStatus, 'pending'>;
  description: string;
  receipt: string | null;
}

const queryAnswerSchema = z.looseObject({
  ResultCode: z.union([z.number(), z.string()]),
  ResultDesc: z.string().optional(),
});

/** Daraja's refusal of a push, as initiation records it (all three absent: never reached). */
const refusalSchema = z.looseObject({
  errorCode: z.string().nullish(),
  errorMessage: z.string().nullish(),
  httpStatus: z.number().nullish(),
});

function reportedIn(row: TimelineRow): Reported | null {
  const body = parsedPayload(row.payload);
  if (row.source === 'callback') {
    const parsed = parseStkCallback(body);
    if (!parsed.ok) return null;
    const status = statusForResultCode(parsed.callback.resultCode);
    return {
      status,
      description: parsed.callback.resultDesc,
      // Only a success carries a receipt that counts (as transaction-outcome.ts applies it).
      receipt: status === 'success' ? (parsed.callback.metadata?.mpesaReceiptNumber ?? null) : null,
    };
  }
  if (row.source === 'query') {
    const parsed = queryAnswerSchema.safeParse(body);
    if (!parsed.success) return null;
    return {
      status: statusForResultCode(String(parsed.data.ResultCode).trim()),
      description: stripControlCharacters(parsed.data.ResultDesc ?? ''),
      receipt: null,
    };
  }
  return null;
}

const STATUS_WORDS: Record<TransactionStatus, string> = {
  pending: 'pending',
  success: 'paid',
  failed: 'failed',
  cancelled: 'cancelled',
  timeout: 'timed out',
  unknown: 'outcome unknown',
  refunded: 'refunded',
};

/** A result as M-PESA reported it: "paid (receipt UF1E26WQJZ)", "cancelled by the payer". */
function resultWords(status: TransactionStatus, receipt: string | null): string {
  if (status === 'success') return receipt ? `paid (receipt ${receipt})` : 'paid';
  if (status === 'cancelled') return 'cancelled by the payer';
  if (status === 'timeout') return 'not answered on the phone in time';
  return STATUS_WORDS[status];
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A flag's reason, or why a report changed nothing, as the event keeps it. */
const reasonOf = (row: TimelineRow) => row.reason ?? '';

/** A callback's or an STK query answer's event, by its kind. */
function describeReport(row: TimelineRow): Pick<TransactionEvent, 'title' | 'detail'> {
  const prefix = row.source === 'callback' ? 'Callback' : 'Asked M-PESA (STK query)';
  const reported = reportedIn(row);
  const result = resultWords(reported?.status ?? row.to_status, reported?.receipt ?? null);
  const said = short(reported?.description);
  const replacing = `${prefix}: ${result}, replacing ${STATUS_WORDS[row.from_status ?? 'pending']}`;

  switch (row.kind) {
    case 'applied':
      return { title: `${prefix}: ${result}`, detail: said };
    case 'duplicate':
      return { title: `${prefix}: duplicate, changed nothing`, detail: said };
    case 'flagged':
      return {
        title: `Flagged for review: ${reasonOf(row)}`,
        detail: `${prefix} reported: ${result}`,
      };
    case 'not_applied_under_review':
      return { title: `${prefix}: ${result}, not applied while under review`, detail: said };
    case 'ignored':
      return {
        title: `${prefix}: ${result}, changed nothing`,
        detail: short(`Not applied: ${reasonOf(row)}.`),
      };
    case 'receipt_added':
      return { title: `${prefix}: ${result}, receipt added`, detail: said };
    case 'settled_unknown':
      return { title: `${prefix}: ${result}, settling the unknown outcome`, detail: said };
    case 'lifted':
      return { title: replacing, detail: said };
    case 'lifted_flagged':
      return { title: replacing, detail: short(`Flagged for review: ${reasonOf(row)}`) };
    case 'lifted_under_review':
      return { title: replacing, detail: 'Still flagged for review' };
    default:
      return { title: `${prefix}: ${result}`, detail: short(row.note) };
  }
}

/** An event recorded while the payment request was saved and sent. */
function describeInitiation(row: TimelineRow): Pick<TransactionEvent, 'title' | 'detail'> {
  switch (row.kind) {
    case 'saved':
      return { title: 'Saved before the payment request was sent', detail: null };
    case 'accepted':
      return { title: 'Accepted by M-PESA', detail: null };
    // The note goes on with our client's error message: not for merchants.
    case 'push_unknown':
      return {
        title: 'M-PESA did not confirm the payment request',
        detail:
          'A prompt may still have reached the payer’s phone; this payment updates on its own.',
      };
    case 'flagged':
      return { title: `Flagged for review: ${reasonOf(row)}`, detail: null };
    case 'push_failed': {
      const refusal = refusalSchema.safeParse(parsedPayload(row.payload));
      const { errorCode, errorMessage, httpStatus } = refusal.success ? refusal.data : {};
      const refused = [errorCode, errorMessage, httpStatus].some(
        (value) => value !== undefined && value !== null,
      );
      if (refused) {
        return {
          title: 'M-PESA refused the payment request',
          detail: short(errorMessage && stripControlCharacters(errorMessage)),
        };
      }
      return { title: 'M-PESA could not be reached', detail: 'No payment request was sent.' };
    }
    default:
      return { title: `Payment request: ${STATUS_WORDS[row.to_status]}`, detail: short(row.note) };
  }
}

export function describeEvent(row: TimelineRow): TransactionEvent {
  let told: Pick<TransactionEvent, 'title' | 'detail'>;
  switch (row.source) {
    case 'initiation':
      told = describeInitiation(row);
      break;
    case 'callback':
    case 'query':
      told = describeReport(row);
      break;
    case 'reconciliation':
      told = {
        title:
          row.to_status === 'unknown'
            ? 'Reconciliation gave up: outcome unknown'
            : `Reconciliation: ${STATUS_WORDS[row.to_status]}`,
        // Our own sentence: why it gave up.
        detail: short(row.note),
      };
      break;
    case 'refund':
      told = describeRefundEvent(row);
      break;
    case 'c2b':
      told = describeC2bEvent(row);
      break;
    case 'review': {
      const verdict = row.from_status === row.to_status ? 'kept' : 'marked';
      const reviewer = reviewerOf(row);
      told = {
        title: `Reviewed by ${reviewer ?? 'a person'}: ${verdict} ${STATUS_WORDS[row.to_status]}`,
        // What the flag was and the reviewer's own note.
        detail: short(row.note && capitalised(row.note)),
      };
      break;
    }
  }
  const reported = reportedIn(row);
  return {
    at: row.at,
    source: row.source,
    kind: row.kind,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    ...told,
    reported: reported && { status: reported.status, receipt: reported.receipt },
    reviewer: row.source === 'review' ? (reviewerOf(row) ?? null) : null,
  };
}

/** An owner's review in the web app names them; the command line's names no one. */
function reviewerOf(row: TimelineRow): string | null | undefined {
  return reviewerSchema.safeParse(parsedPayload(row.payload)).data?.reviewer;
}
