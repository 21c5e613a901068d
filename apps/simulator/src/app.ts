/** Builds the Daraja simulator: Daraja's API, the /_sim control API, and the virtual phone page. */
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { SimClock } from './clock.ts';
import type { SimulatorConfig } from './config.ts';
import { FaultPlan } from './faults.ts';
import { openJournal } from './journal.ts';
import { PromptBook } from './prompts.ts';
import { RequestLog } from './request-log.ts';
import { redactUrl } from './redact.ts';
import { thisMachineOnly } from './remote-access.ts';
import { keepState, type StateKeeper } from './state.ts';
import { TokenStore } from './tokens.ts';
import { ERRORS } from './catalogue.ts';
import { darajaError, darajaRoutes } from './routes/daraja.routes.ts';
import { controlRoutes } from './routes/control.routes.ts';
import { openApiRoutes, registerOpenApi } from './openapi.ts';

export interface Simulator {
  app: FastifyInstance;
  prompts: PromptBook;
  log: RequestLog;
  tokens: TokenStore;
  /** The simulator's time, which POST /_sim/clock/advance moves forward. */
  clock: SimClock;
  /** The fault rules (PUT /_sim/faults). */
  faults: FaultPlan;
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
 * (state.ts): the one this request made, and any other the answer may show. If that write
 * fails, the answer is `failure`, a 500, instead: nothing is answered as done that a restart
 * would forget. Without SIM_STATE the hook is not there at all.
 */
function answerWhenSaved(scope: FastifyInstance, state: StateKeeper, failure: () => object) {
  scope.addHook('onSend', (_request, reply, payload, done) => {
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

export async function buildSimulator(
  config: SimulatorConfig,
  options: { logger?: boolean | object } = {},
): Promise<Simulator> {
  const app = Fastify({
    // "body/rules/0/probability must be …"; a problem with the whole body reads "body …".
    schemaErrorFormatter: (errors, dataVar) =>
      new Error(
        errors
          .map((error) => {
            const path = error.instancePath.replace(/^\/$/, '');
            const message =
              path === '' && error.message?.startsWith('Invalid input: expected object')
                ? 'must be a JSON object'
                : error.message;
            return `${dataVar}${path} ${message}`;
          })
          .join(', '),
      ),
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // pino's request lines, with the URL masked like everything else the simulator shows.
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                url: redactUrl(req.url),
                remoteAddress: req.ip,
              }),
            },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    forceCloseConnections: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // One clock for everything that waits or reads the time, so that moving it moves them all.
  const clock = new SimClock();
  const faults = new FaultPlan();
  const prompts = new PromptBook(config, clock, faults);
  const log = new RequestLog();
  const tokens = new TokenStore(config.tokenTtlS, clock);
  prompts.on('change', (event) => {
    if (event.type === 'callback') log.add({ kind: 'callback', ...event.attempt });
  });
  // SIM_JOURNAL and SIM_STATE: a file that cannot be used stops the start, with a sentence saying why.
  const journal = config.journal
    ? openJournal(config.journal, log, (message) => app.log.error(message))
    : undefined;
  let state: StateKeeper | undefined;
  try {
    state = config.state
      ? await keepState(config.state, { prompts, tokens, clock, faults }, (message) =>
          app.log.error(message),
        )
      : undefined;
  } catch (error) {
    await journal?.close();
    throw error;
  }

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'simulator error');
    return reply.code(status).send({ error: status >= 500 ? 'Internal error' : error.message });
  });

  // The simulator's description, collected from the routes registered after it.
  await registerOpenApi(app, config);
  await app.register(async (daraja) => {
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
      logRequest(request, reply, reply.statusCode, payload);
      return payload;
    });
    await daraja.register(darajaRoutes, {
      config,
      prompts,
      tokens,
      faults,
      onDropped: (request, reply) => logRequest(request, reply, null, null),
    });
    daraja.setNotFoundHandler(async (_request, reply) =>
      reply
        .code(404)
        .send({ requestId: '', errorCode: '404.001.01', errorMessage: 'Resource not found' }),
    );
  });
  // The control API and the virtual phone: this machine only, unless SIM_REMOTE_CONTROL says otherwise.
  await app.register(async (local) => {
    local.addHook('onRequest', thisMachineOnly(config));
    // A control call with no body is no body, even when the client's HTTP wrapper says
    // Content-Type: application/json on every request (Fastify refuses an empty JSON body).
    const json = local.getDefaultJsonParser('error', 'error');
    local.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
      body === '' ? done(null, undefined) : json(request, String(body), done),
    );
    await local.register(async (control) => {
      if (state) answerWhenSaved(control, state, () => ({ error: NOT_SAVED }));
      await control.register(controlRoutes, {
        prefix: '/_sim',
        config,
        prompts,
        log,
        tokens,
        clock,
        faults,
      });
    });
    // /_sim/openapi.json and the page /_sim/docs.
    await local.register(openApiRoutes, { prefix: '/_sim', document: () => app.swagger() });
    await local.register(fastifyStatic, {
      root: path.join(import.meta.dirname, 'public'),
      prefix: '/',
    });
  });

  app.addHook('onClose', async () => {
    await state?.close(); // first: the reset below must not reach the file
    await journal?.close();
    prompts.reset();
    clock.clearAll();
  });
  return { app, prompts, log, tokens, clock, faults };
}
