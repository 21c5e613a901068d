/**
 * What a Result API's route shows in the simulator's description (docs/daraja-protocol.md §M1):
 * its body, the acknowledgement, the refusals, and the Result that follows, as an example in the
 * description (the Result goes to ResultURL later; it is no answer of the route). For the
 * description only (daraja/docs.ts says why).
 */
import { z } from 'zod';
import { invalidField } from '../catalogue.ts';
import {
  CALL_REFUSALS,
  DARAJA_TAGS,
  METHOD_NOT_ALLOWED,
  bearer,
  numeric,
  refusals,
} from '../daraja/docs.ts';
import type { RouteDocs } from '../route-docs.ts';
import { ACCEPTED_DESCRIPTION } from './result.ts';

/** The fields every Result API's body has, described once. */
export const COMMON_FIELDS = {
  Initiator: z.string().describe('The initiator (SIM_INITIATOR_NAME, `testapi` by default)'),
  SecurityCredential: z
    .string()
    .describe("The initiator's password encrypted with the certificate of GET /_sim/certificate"),
  ResultURL: z.string().describe('Where the Result is posted: an http or https URL'),
  QueueTimeOutURL: z
    .string()
    .describe('Where a timeout notice goes, with SIM_QUEUE_TIMEOUT_NOTICE_MS only'),
  Remarks: z.string().describe('Up to 100 characters'),
};

export const IDENTIFIER_TYPE = numeric('1 a customer number, 2 a till, 4 a shortcode');

const acknowledged = z
  .object({
    OriginatorConversationID: z.string(),
    ConversationID: z.string(),
    ResponseCode: z.literal('0'),
    ResponseDescription: z.literal(ACCEPTED_DESCRIPTION),
  })
  .meta({
    description: 'Accepted for processing: the Result follows at ResultURL.',
    'x-examples': {
      accepted: {
        summary: 'Accepted',
        value: {
          OriginatorConversationID: '53e3-4aa8-9fe0-8fb5e4092cdd3533373',
          ConversationID: 'AG_20260314_20106e9209f64bebd05b',
          ResponseCode: '0',
          ResponseDescription: ACCEPTED_DESCRIPTION,
        },
      },
    },
  });

export interface ResultApiDocs {
  path: string;
  summary: string;
  /** What the route does, in a paragraph or two. */
  description: string;
  body: z.ZodObject;
  example: Record<string, unknown>;
  /** A Result it sends, for the description. */
  result: unknown;
  /** The field an invalid-field example names. */
  invalidField: string;
}

export function resultApiDocs(docs: ResultApiDocs): Record<string, RouteDocs> {
  return {
    [`POST ${docs.path}`]: {
      summary: docs.summary,
      description:
        `${docs.description}\n\nA Result it posts to ResultURL:\n\n\`\`\`json\n` +
        `${JSON.stringify(docs.result, null, 2)}\n\`\`\`\n\n` +
        'A wrong SecurityCredential is acknowledged, then its Result has 2001 (8006 once the ' +
        'initiator is locked). ' +
        METHOD_NOT_ALLOWED('POST'),
      tags: DARAJA_TAGS,
      headers: bearer,
      body: docs.body.meta({
        'x-examples': { request: { summary: 'A request', value: docs.example } },
      }),
      response: {
        200: acknowledged,
        ...refusals({
          invalidField: {
            summary: 'A field missing or not valid (the first one, named as Daraja expects it)',
            failure: invalidField(docs.invalidField),
          },
          invalidPayload: CALL_REFUSALS.invalidPayload,
          invalidToken: CALL_REFUSALS.invalidToken,
          invalidAuthHeader: CALL_REFUSALS.invalidAuthHeader,
        }),
      },
    },
  };
}
