/**
 * What Daraja's routes share in the simulator's description (docs/daraja-protocol.md §2, §3, §5):
 * the error envelope and its examples, sample identifiers, the refusals every M-PESA API call can
 * get. For the description only: Daraja's routes check their requests by hand, so that every
 * refusal is Daraja's own (`400.002.02 Bad Request - Invalid PhoneNumber`), never a schema
 * validator's; nothing here validates a request or shapes an answer.
 */
import { z } from 'zod';
import { ERRORS, type Failure } from '../catalogue.ts';
import type { RouteDocs } from '../route-docs.ts';

/** Daraja's synchronous error envelope (docs/daraja-protocol.md §3.5). */
const envelope = z.object({
  requestId: z.string(),
  errorCode: z.string(),
  errorMessage: z.string(),
});

/** Example identifiers in Daraja's formats (docs/daraja-protocol.md §3.4). */
export const SAMPLE = {
  requestId: '2ba8-4165-beca-292db11f9ef8358609',
  merchantRequestId: '2654-4b64-97ff-b827b542881d3130',
  checkoutRequestId: 'ws_CO_14032026122653412712345678',
  timestamp: '20260314122653',
  token: 'c9SQxWWhmdVRlyh0zh8gZDTkubVF',
};

export const DARAJA_TAGS: [string] = ['Daraja'];

/** The refusals of one route by status, each an example of the envelope. */
export function refusals(
  named: Record<string, { summary: string; failure: Failure; requestId?: string }>,
): RouteDocs['response'] {
  const byStatus: Record<number, Record<string, { summary: string; value: unknown }>> = {};
  for (const [name, { summary, failure, requestId }] of Object.entries(named)) {
    const [status, errorCode, errorMessage] = failure;
    byStatus[status] = {
      ...byStatus[status],
      [name]: {
        summary,
        value: { requestId: requestId ?? SAMPLE.requestId, errorCode, errorMessage },
      },
    };
  }
  return Object.fromEntries(
    Object.entries(byStatus).map(([status, examples]) => [
      status,
      envelope.meta({
        description: `Refused, in Daraja's envelope: ${[...new Set(Object.values(examples).map((example) => `\`${(example.value as { errorCode: string }).errorCode}\``))].join(', ')}.`,
        'x-examples': examples,
      }),
    ]),
  );
}

export const bearer = z.object({
  authorization: z.string().describe('`Bearer <access_token>`, a token from `/oauth/v1/generate`'),
});

/** Numeric fields: Daraja takes a number or a string of digits. */
export const numeric = (description: string) =>
  z.union([z.string(), z.number()]).describe(description);

export const METHOD_NOT_ALLOWED = (allowed: string) =>
  `Any other method than ${allowed} is refused with 405 \`405.001\` ("PUT Method Not Allowed"); an unknown path with 404 \`404.001.01\` "Resource not found".`;

/** Refusals every M-PESA API call can get before its body is read. */
export const CALL_REFUSALS = {
  invalidPayload: { summary: 'The body is not a JSON object', failure: ERRORS.invalidPayload },
  invalidToken: {
    summary: 'No token, or one that has expired or was never issued',
    failure: ERRORS.invalidToken,
  },
  invalidAuthHeader: {
    summary: 'An Authorization header that is not `Bearer …`',
    failure: ERRORS.invalidAuthHeader,
  },
  wrongCredentials: {
    summary: 'Password is not base64(BusinessShortCode + passkey + Timestamp)',
    failure: ERRORS.wrongCredentials,
  },
  merchantMissing: {
    summary: 'A BusinessShortCode the simulator does not know',
    failure: ERRORS.merchantMissing,
  },
};
