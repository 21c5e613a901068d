/**
 * What the history's routes (history.routes.ts, payment-page.route.ts) answer, and what the API
 * description says of them: each route's summary, and its answers' schemas with an example of
 * each (openapi/responses.ts).
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import {
  summaryResponseSchema,
  selectionTotalsResponseSchema,
  transactionListResponseSchema,
  transactionResponseSchema,
} from '@mpesa/shared/contract';
import { tooManyExports } from '../../errors.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import { ACCESS_REFUSED } from '../operators/index.ts';
import { SAMPLE } from '../payments/index.ts';
import { EXPORT_RETRY_AFTER_S } from './export-limit.ts';
import { SAMPLE_CSV, SAMPLE_SUMMARY } from './history.examples.ts';

/** The refusal only the export meets. */
const tooManyExportsRefused = refusal(
  'As many exports as this server runs at once are under way: ask again after Retry-After',
  tooManyExports(EXPORT_RETRY_AFTER_S),
);

/** Each route's summary, description and tag. */
export const DESCRIBED = {
  list: {
    summary: 'List payments, newest first, a page at a time',
    description:
      'Filters: `status` (one or several, repeated or comma-separated), `from` and `to` (business ' +
      'days, both included), `q` (see below). Pass `nextCursor` back as `cursor` for the next ' +
      'page.\n\n' +
      '`q`, at most 100 characters: a whole phone number in any accepted form (`0712 345 678`, ' +
      '`+254712345678`) finds that number’s payments. Anything else finds a receipt ' +
      '(`qkj1a2b3c4` finds `QKJ1A2B3C4`) and the references that start with it, whatever the ' +
      'case of A to Z (`sukari` finds `Sukari 2kg`; other letters match as typed); and when it ' +
      'is four digits or more and nothing else (`0001`, `345678`), also the payments whose phone ' +
      'number ends with them. Each payment is listed once, whichever it matched. `%` and `_` are ' +
      'plain characters, not wildcards.',
    tags: ['History'],
  },
  summary: {
    summary: 'The figures at a glance: today, the last 7 business days, and 14 days by status',
    tags: ['History'],
  },
  totals: {
    summary: 'What the selected payments add up to: how many, and how many paid and for how much',
    description:
      'The same filters as the list, over the whole selection rather than a page. A payment a ' +
      'search finds in two ways counts once.',
    tags: ['History'],
  },
  export: {
    summary: 'Download the selected payments as CSV',
    description:
      'The same filters as the list; every payment they select, newest first, streamed, as a ' +
      'spreadsheet reads it: UTF-8 with a byte-order mark, headers in words, times as ' +
      '`2026-11-25 12:20:47` in the business time zone (named in the header), phone numbers as ' +
      '`254-712-345-678` (text to every spreadsheet, and the same to a script; a masked one as ' +
      'stored, `254*****5678`). A cell a spreadsheet would otherwise run as a ' +
      "formula starts with `'`. The file name says the filter: " +
      '`payments-success-2026-11-01-to-2026-11-25.csv`, `payments-all-<today>.csv`.',
    tags: ['History'],
  },
  byId: {
    summary: 'One payment, with its status',
    description:
      'While it is `pending`, ask again every few seconds: the status changes once M-PESA reports. ' +
      'With `HISTORY_ACCESS=operators`, a request with no session and no key that reads payments ' +
      'gets the payer’s view (`view: "payer"`): the number only in part (`0712 ••• 678`), no ' +
      'payer’s name and no `checkoutRequestId` (it ends with the number).',
    tags: ['History'],
  },
};

/** Each route's answers, by status. */
export const ANSWERS = {
  list: {
    200: answer(transactionListResponseSchema, 'A page of payments.', {
      page: {
        summary: 'The last page (no cursor to go on with)',
        value: { success: true, data: [SAMPLE.paid], nextCursor: null },
      },
    }),
    ...refusals([
      REFUSED.validation,
      REFUSED.invalidCursor,
      ...ACCESS_REFUSED,
      REFUSED.databaseUnavailable,
    ]),
  },
  summary: {
    200: answer(summaryResponseSchema, 'The figures, in business days.', {
      summary: {
        summary: 'A business with one payment today',
        value: { success: true, data: SAMPLE_SUMMARY },
      },
    }),
    ...refusals([...ACCESS_REFUSED, REFUSED.databaseUnavailable]),
  },
  totals: {
    200: answer(selectionTotalsResponseSchema, 'What the selection adds up to.', {
      totals: {
        summary: 'Three payments, two of them paid',
        value: { success: true, data: { count: 3, paidCount: 2, paid: 1450 } },
      },
    }),
    ...refusals([REFUSED.validation, ...ACCESS_REFUSED, REFUSED.databaseUnavailable]),
  },
  export: {
    200: {
      description: 'The payments as CSV (RFC 4180), as an attachment.',
      content: {
        'text/csv': {
          // A stream of text, which Fastify sends as it is (no serializer): described as the
          // string it makes.
          schema: z.custom<Readable>().meta({ type: 'string', examples: [SAMPLE_CSV] }),
        },
      },
    },
    ...refusals([
      REFUSED.validation,
      tooManyExportsRefused,
      ...ACCESS_REFUSED,
      REFUSED.databaseUnavailable,
    ]),
  },
  byId: {
    200: answer(transactionResponseSchema, 'The payment.', {
      paid: { summary: 'Paid', value: { success: true, data: SAMPLE.paid } },
      pending: { summary: 'Waiting for the payer', value: { success: true, data: SAMPLE.pending } },
    }),
    ...refusals([...PATH_REFUSALS, REFUSED.transactionNotFound, REFUSED.databaseUnavailable]),
  },
};
