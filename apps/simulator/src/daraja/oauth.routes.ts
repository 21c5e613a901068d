/**
 * OAuth (docs/daraja-protocol.md §2): the access token every Daraja API's calls carry. Shared by
 * them all, so it is Daraja's transport, not one of the operations.
 */
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../catalogue.ts';
import type { SimulatorConfig } from '../config.ts';
import type { TokenStore } from '../tokens.ts';
import { fail, methodNotAllowed } from './envelope.ts';
import type { DarajaGate } from './gate.ts';

function basicCredentials(header: string | undefined): { key: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return null;
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export function oauthRoutes(
  app: FastifyInstance,
  gate: DarajaGate,
  { config, tokens }: { config: SimulatorConfig; tokens: TokenStore },
) {
  app.all('/oauth/v1/generate', async (request, reply) => {
    if (await gate.faulted('oauth', request, reply)) return reply;
    if (request.method !== 'GET') return fail(reply, methodNotAllowed(request.method));
    const query = request.query as Record<string, unknown>;
    if (query.grant_type !== 'client_credentials') return fail(reply, ERRORS.invalidGrant);
    const credentials = basicCredentials(request.headers.authorization);
    if (!credentials) return fail(reply, ERRORS.invalidAuthentication);
    const pinned = config.consumerKey !== undefined || config.consumerSecret !== undefined;
    if (
      pinned &&
      (credentials.key !== config.consumerKey || credentials.secret !== config.consumerSecret)
    ) {
      return fail(reply, ERRORS.invalidAuthentication);
    }
    const { token, expiresInS } = tokens.issue();
    return reply.send({ access_token: token, expires_in: String(expiresInS) });
  });
}
