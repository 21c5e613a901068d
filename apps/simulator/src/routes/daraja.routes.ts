/**
 * Daraja's public surface: OAuth, STK push and STK query, with Daraja's error envelope for every
 * refusal (PROTOCOL.md §2, §3, §5). Bodies are read as text so malformed JSON gets Daraja's own
 * 400.002.05 rather than a framework error. The fault rules (PUT /_sim/faults) apply here too.
 */
import { setTimeout as wait } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, PUSH_ACCEPTED, QUERY_ACCEPTED, REFUSALS, invalidField } from '../catalogue.ts';
import { isRefusal, type FaultPlan, type Operation } from '../faults.ts';
import { requestId } from '../ids.ts';
import { stkPassword } from '../password.ts';
import type { PromptBook } from '../prompts.ts';
import type { TokenStore } from '../tokens.ts';
import type { SimulatorConfig } from '../config.ts';
import { checkPush, checkQuery, timestampSkewHours, type Fields } from './validation.ts';

export interface DarajaRoutesOptions {
  config: SimulatorConfig;
  prompts: PromptBook;
  tokens: TokenStore;
  faults: FaultPlan;
  /** A fault closed the connection of this request with no answer (the log records it). */
  onDropped?: (request: FastifyRequest, reply: FastifyReply) => void;
}

export type Failure = readonly [number, string, string];

/** Daraja's error envelope. */
export function darajaError([, errorCode, errorMessage]: Failure, id = requestId()) {
  return { requestId: id, errorCode, errorMessage };
}

function fail(reply: FastifyReply, failure: Failure, id = requestId()) {
  return reply.code(failure[0]).send(darajaError(failure, id));
}

function basicCredentials(header: string | undefined): { key: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return null;
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** What a proxy in front of Daraja answers when Daraja does not: a 5xx page, not Daraja's JSON. */
const GATEWAY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>\n';

export async function darajaRoutes(
  app: FastifyInstance,
  { config, prompts, tokens, faults, onDropped }: DarajaRoutesOptions,
) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  /**
   * The fault rules for this request: waits the latency they draw (real time: the simulator's
   * clock may be moved), then answers with their error if one applies. Returns whether it answered.
   *
   * They are drawn first, before the method, the token and the body are looked at: Daraja's
   * spike arrest, quota and busy refusals come from the gateway in front of it (Apigee,
   * PROTOCOL.md §1), as do a dropped connection and a proxy's 502, and none of them depends on
   * what the request says. So a faulted push is refused whatever its body, and prompts no phone.
   */
  async function faulted(operation: Operation, request: FastifyRequest, reply: FastifyReply) {
    const { error, latencyMs } = faults.decide(operation);
    if (latencyMs > 0) await wait(latencyMs, undefined, { ref: false });
    if (error === null) return false;
    if (isRefusal(error)) {
      void fail(reply, REFUSALS[error]);
    } else if (error === 'gateway') {
      void reply.code(502).type('text/html').send(GATEWAY_PAGE);
    } else {
      // `drop`: the connection closes with no answer at all, as a network fault does.
      reply.hijack();
      reply.raw.destroy();
      onDropped?.(request, reply);
    }
    return true;
  }

  app.all('/oauth/v1/generate', async (request, reply) => {
    if (await faulted('oauth', request, reply)) return reply;
    if (request.method !== 'GET')
      return fail(reply, [405, '405.001', `${request.method} Method Not Allowed`]);
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

  /** The checks every M-PESA API call passes first: method, bearer token, JSON body. */
  function authorizedBody(request: FastifyRequest, reply: FastifyReply): Fields | undefined {
    if (request.method !== 'POST') {
      void fail(reply, [405, '405.001', `${request.method} Method Not Allowed`]);
      return undefined;
    }
    const header = request.headers.authorization;
    if (header !== undefined && !/^Bearer\s/i.test(header)) {
      void fail(reply, ERRORS.invalidAuthHeader);
      return undefined;
    }
    const token = header?.replace(/^Bearer\s+/i, '').trim() ?? '';
    if (!tokens.isValid(token)) {
      void fail(reply, ERRORS.invalidToken);
      return undefined;
    }
    let body: unknown;
    try {
      body = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      body = undefined;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      void fail(reply, ERRORS.invalidPayload);
      return undefined;
    }
    return body as Fields;
  }

  /** Shortcode known and Password = base64(shortcode + passkey + timestamp). */
  function credentialFailure(
    shortcode: string,
    password: string,
    timestamp: string,
  ): Failure | undefined {
    if (config.maxTimestampSkewH > 0 && timestampSkewHours(timestamp) > config.maxTimestampSkewH) {
      return invalidField('Timestamp');
    }
    if (shortcode !== config.shortcode) return ERRORS.merchantMissing;
    if (password !== stkPassword(shortcode, config.passkey, timestamp))
      return ERRORS.wrongCredentials;
    return undefined;
  }

  app.all('/mpesa/stkpush/v1/processrequest', async (request, reply) => {
    if (await faulted('stkpush', request, reply)) return reply;
    const body = authorizedBody(request, reply);
    if (!body) return reply;
    const checked = checkPush(body, config.strictLengths);
    if (!checked.ok) return fail(reply, invalidField(checked.field));
    const push = checked.value;
    const refused = credentialFailure(push.businessShortCode, push.password, push.timestamp);
    if (refused) return fail(reply, refused);
    if (prompts.openPromptFor(push.phoneNumber)) return fail(reply, ERRORS.subscriberLocked);
    const forced = prompts.peekForced(push.phoneNumber);
    if (forced?.kind === 'refuse') {
      prompts.clearNext(push.phoneNumber);
      return fail(reply, REFUSALS[forced.error]);
    }
    const prompt = prompts.create({
      businessShortCode: push.businessShortCode,
      transactionType: push.transactionType,
      amount: push.amount,
      partyA: push.partyA,
      partyB: push.partyB,
      phoneNumber: push.phoneNumber,
      callbackUrl: push.callbackUrl,
      accountReference: push.accountReference,
      transactionDesc: push.transactionDesc,
    });
    return reply.send({
      MerchantRequestID: prompt.merchantRequestId,
      CheckoutRequestID: prompt.checkoutRequestId,
      ResponseCode: '0',
      ResponseDescription: PUSH_ACCEPTED,
      CustomerMessage: PUSH_ACCEPTED,
    });
  });

  app.all('/mpesa/stkpushquery/v1/query', async (request, reply) => {
    if (await faulted('query', request, reply)) return reply;
    const body = authorizedBody(request, reply);
    if (!body) return reply;
    const checked = checkQuery(body);
    if (!checked.ok) return fail(reply, invalidField(checked.field));
    const query = checked.value;
    const refused = credentialFailure(query.businessShortCode, query.password, query.timestamp);
    if (refused) return fail(reply, refused);
    const prompt = prompts.get(query.checkoutRequestId);
    if (!prompt || prompt.businessShortCode !== query.businessShortCode) {
      return fail(reply, invalidField('CheckoutRequestID'));
    }
    if (prompt.state === 'open') {
      // Observed: the requestId of this answer is the CheckoutRequestID itself.
      return fail(reply, ERRORS.stillProcessing, prompt.checkoutRequestId);
    }
    return reply.send({
      ResponseCode: '0',
      ResponseDescription: QUERY_ACCEPTED,
      MerchantRequestID: prompt.merchantRequestId,
      CheckoutRequestID: prompt.checkoutRequestId,
      ResultCode: prompt.resultCode,
      ResultDesc: prompt.resultDesc,
    });
  });
}
