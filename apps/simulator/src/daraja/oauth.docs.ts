/** OAuth's route as the simulator's description shows it (docs/daraja-protocol.md §2). */
import { z } from 'zod';
import { ERRORS } from '../catalogue.ts';
import type { SimulatorConfig } from '../config.ts';
import type { RouteDocs } from '../route-docs.ts';
import { DARAJA_TAGS, METHOD_NOT_ALLOWED, SAMPLE, refusals } from './docs.ts';

export function oauthDocs(config: SimulatorConfig): Record<string, RouteDocs> {
  return {
    'GET /oauth/v1/generate': {
      summary: 'An access token (OAuth client credentials)',
      description:
        'Any non-empty consumer key and secret are accepted, unless SIM_CONSUMER_KEY and SIM_CONSUMER_SECRET pin one pair. ' +
        `Tokens last SIM_TOKEN_TTL_S (${config.tokenTtlS} s); \`expires_in\` is a string, as in Daraja's answers.\n\n` +
        METHOD_NOT_ALLOWED('GET'),
      tags: DARAJA_TAGS,
      querystring: z.object({ grant_type: z.literal('client_credentials') }),
      headers: z.object({
        authorization: z.string().describe('`Basic base64(consumerKey:consumerSecret)`'),
      }),
      response: {
        200: z.object({ access_token: z.string(), expires_in: z.string() }).meta({
          description: 'A token for the M-PESA calls.',
          'x-examples': {
            token: {
              summary: 'A token',
              value: { access_token: SAMPLE.token, expires_in: String(config.tokenTtlS - 1) },
            },
          },
        }),
        ...refusals({
          invalidGrant: {
            summary: 'grant_type is not client_credentials',
            failure: ERRORS.invalidGrant,
          },
          invalidAuthentication: {
            summary: 'No Basic credentials, or not the pinned pair',
            failure: ERRORS.invalidAuthentication,
          },
        }),
      },
    },
  };
}
