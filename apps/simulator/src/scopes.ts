/**
 * The simulator's two halves, each a Fastify scope of its own: Daraja's routes, which answer
 * whoever reaches SIM_HOST and log every request; and this machine's (unless SIM_REMOTE_CONTROL
 * says otherwise): the control API, the description and the virtual phone page.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ERRORS } from './catalogue.ts';
import type { SimClock } from './clock.ts';
import type { SimulatorConfig } from './config.ts';
import { darajaError } from './daraja/envelope.ts';
import { darajaRoutes } from './daraja/daraja.routes.ts';
import { answerIsLost } from './daraja/gate.ts';
import type { FaultPlan } from './faults.ts';
import { openApiRoutes } from './openapi.ts';
import type { RunningOperation } from './operations/operation.ts';
import type { CertificateAuthority } from './proxy/authority.ts';
import { proxyRoutes } from './proxy/proxy.routes.ts';
import { notThroughTheProxy } from './proxy/forward.ts';
import { thisMachineOnly } from './remote-access.ts';
import type { RequestLog } from './request-log.ts';
import { controlRoutes } from './routes/control.routes.ts';
import type { StateKeeper } from './state.ts';
import type { TokenStore } from './tokens.ts';

/** What both scopes work on. */
export interface Stores {
  config: SimulatorConfig;
  operations: RunningOperation[];
  log: RequestLog;
  tokens: TokenStore;
  clock: SimClock;
  faults: FaultPlan;
  state: StateKeeper | undefined;
  /** The proxy mode's certificate authority; undefined when SIM_PROXY=false. */
  authority: CertificateAuthority | undefined;
}

const MAX_LOGGED_BODY = 8192;

function loggable(body: unknown): unknown {
  if (typeof body !== 'string') return body ?? null;
  try {
    return JSON.parse(body);
  } catch {
    return body.slice(0, MAX_LOGGED_BODY);
  }
}

/** The control API's answer when SIM_STATE's file could not be written (state.ts logs why). */
const NOT_SAVED =
  'The simulator could not write its SIM_STATE file (its log says why): what this request did or shows would not survive a restart.';

/**
 * With SIM_STATE, each answer of this scope waits until the file holds every change made so far
 * (state.ts): the one this request made, and any other the answer may show. A request that may
 * have started something (not a GET or HEAD) and succeeded is written whether or not its store
 * said it changed: what a Daraja API accepted must survive a crash even if its code forgot to say
 * so (a state the file already holds is not written again). If that write fails, the answer is
 * `failure`, a 500, instead: nothing is answered as done that a restart would forget. Without
 * SIM_STATE the hook is not there at all.
 */
function answerWhenSaved(scope: FastifyInstance, state: StateKeeper, failure: () => object) {
  scope.addHook('onSend', (request, reply, payload, done) => {
    const reads = request.method === 'GET' || request.method === 'HEAD';
    if (!reads && reply.statusCode < 300) state.changed();
    const saving = state.saved();
    if (!saving) return done(null, payload);
    saving.then(
      () => done(null, payload),
      () => {
        void reply.code(500).type('application/json; charset=utf-8');
        done(null, JSON.stringify(failure()));
      },
    );
  });
}

/** Daraja's routes, each request recorded with its answer for the live log. */
export async function darajaScope(daraja: FastifyInstance, stores: Stores) {
  const { config, operations, log, tokens, faults, state } = stores;
  // Record every Daraja request with its answer for the live log (which masks its secrets); a
  // request whose connection a fault dropped, with no status and no answer.
  const logRequest = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number | null,
    payload: unknown,
  ) =>
    log.add({
      kind: 'request',
      at: new Date().toISOString(),
      method: request.method,
      path: request.url,
      authorization: request.headers.authorization ?? null,
      requestBody: loggable(request.body),
      status,
      responseBody: status === null ? null : loggable(payload),
      durationMs: Math.round(reply.elapsedTime),
    });
  // Before the log's hook, so that the log shows the answer that leaves.
  if (state) answerWhenSaved(daraja, state, () => darajaError(ERRORS.internal));
  daraja.addHook('onSend', async (request, reply, payload) => {
    if (answerIsLost(reply)) {
      // A `lose-answer` fault: done and saved, but the answer never leaves (gate.ts).
      logRequest(request, reply, null, null);
      reply.raw.destroy();
      return payload;
    }
    logRequest(request, reply, reply.statusCode, payload);
    return payload;
  });
  await daraja.register(darajaRoutes, {
    config,
    tokens,
    faults,
    operations,
    onDropped: (request, reply) => logRequest(request, reply, null, null),
  });
  daraja.setNotFoundHandler(async (_request, reply) =>
    reply
      .code(404)
      .send({ requestId: '', errorCode: '404.001.01', errorMessage: 'Resource not found' }),
  );
}

/** The control API, the description and the virtual phone: this machine only, unless SIM_REMOTE_CONTROL. */
export async function localScope(
  local: FastifyInstance,
  { stores, document }: { stores: Stores; document: () => object },
) {
  const { state, authority, ...routeOptions } = stores;
  local.addHook('onRequest', thisMachineOnly(stores.config));
  local.addHook('onRequest', notThroughTheProxy);
  // A control call with no body is no body, even when the client's HTTP wrapper says
  // Content-Type: application/json on every request (Fastify refuses an empty JSON body).
  const json = local.getDefaultJsonParser('error', 'error');
  local.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, String(body), done),
  );
  await local.register(async (control) => {
    if (state) answerWhenSaved(control, state, () => ({ error: NOT_SAVED }));
    await control.register(controlRoutes, { prefix: '/_sim', ...routeOptions });
    await control.register(proxyRoutes, { prefix: '/_sim', authority });
  });
  // /_sim/openapi.json and the page /_sim/docs.
  await local.register(openApiRoutes, { prefix: '/_sim', document });
  await local.register(fastifyStatic, {
    root: path.join(import.meta.dirname, 'public'),
    prefix: '/',
  });
}
