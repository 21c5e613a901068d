/** Builds the Daraja simulator: Daraja's API, the /_sim control API, and the virtual phone page. */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { SimClock } from './clock.ts';
import type { SimulatorConfig } from './config.ts';
import { FaultPlan } from './faults.ts';
import { openJournal } from './journal.ts';
import type { Ledger } from './money/ledger.ts';
import { registerOpenApi } from './openapi.ts';
import { startOperations } from './operations/index.ts';
import type { InitiatorBook } from './operations/initiators/initiator-book.ts';
import type { NextOutcomes } from './operations/outcomes/next-outcomes.ts';
import type { PromptBook } from './operations/stk/prompt-book.ts';
import { CertificateAuthority } from './proxy/authority.ts';
import { forwardedPath, refuseOtherHosts } from './proxy/forward.ts';
import { answerConnect } from './proxy/tunnel.ts';
import { redactUrl } from './redact.ts';
import { RequestLog } from './request-log.ts';
import { darajaScope, localScope, type Stores } from './scopes.ts';
import { keepState, type StateKeeper } from './state.ts';
import { TokenStore } from './tokens.ts';

export interface Simulator {
  app: FastifyInstance;
  prompts: PromptBook;
  log: RequestLog;
  tokens: TokenStore;
  /** The simulator's time, which POST /_sim/clock/advance moves forward. */
  clock: SimClock;
  /** The fault rules (PUT /_sim/faults). */
  faults: FaultPlan;
  /** The initiators of the Result APIs and their SecurityCredential check. */
  initiators: InitiatorBook;
  /** The simulated money every Daraja API moves (GET /_sim/ledger). */
  ledger: Ledger;
  /** Outcomes on demand for every API but STK push (their magic numbers, chosen next outcomes). */
  outcomes: NextOutcomes;
  /**
   * The proxy mode's certificate authority (proxy/), made or read at its first use; undefined
   * when SIM_PROXY=false.
   */
  authority: CertificateAuthority | undefined;
}

function fastifyOptions(
  config: SimulatorConfig,
  options: { logger?: boolean | object },
): FastifyServerOptions {
  return {
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
    // A request sent whole to the simulator as a proxy: routed by its path (proxy/forward.ts).
    rewriteUrl: (request) => forwardedPath(request, config.proxy),
  };
}

export async function buildSimulator(
  config: SimulatorConfig,
  options: { logger?: boolean | object } = {},
): Promise<Simulator> {
  const app = Fastify(fastifyOptions(config, options));
  // A client may half-close (send its FIN) once its request is sent: it still reads the answer.
  // Node's server would end the socket at the FIN, before the answer is written.
  // (A property of http.Server that @types/node does not declare.)
  Object.assign(app.server, { httpAllowHalfOpen: true });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // One clock for everything that waits or reads the time, so that moving it moves them all.
  const clock = new SimClock();
  const faults = new FaultPlan();
  const log = new RequestLog();
  const running = startOperations({ config, clock, faults, log }, app.log);
  const operations = Object.values(running);
  const tokens = new TokenStore(config.tokenTtlS, clock);
  // SIM_JOURNAL and SIM_STATE: a file that cannot be used stops the start, with a sentence saying why.
  const journal = config.journal
    ? openJournal(config.journal, log, (message) => app.log.error(message))
    : undefined;
  let state: StateKeeper | undefined;
  try {
    state = config.state
      ? await keepState(config.state, { tokens, clock, faults, operations }, (message) =>
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
  // The proxy mode (SIM_PROXY): Daraja's hosts served by this app, tunnelled (CONNECT, TLS ended
  // here) or sent whole; other hosts refused.
  const authority = config.proxy ? new CertificateAuthority(config.proxyCaDir) : undefined;
  const proxy = answerConnect(app.server, authority, app.log);
  app.addHook('preClose', async () => proxy.close());
  app.addHook('onRequest', refuseOtherHosts(config.proxy));
  const stores: Stores = { config, operations, log, tokens, clock, faults, state, authority };
  await app.register(darajaScope, stores);
  await app.register(localScope, { stores, document: () => app.swagger() });

  app.addHook('onClose', async () => {
    await state?.close(); // first: the reset below must not reach the file
    await journal?.close();
    for (const operation of operations) operation.reset();
    clock.clearAll();
  });
  return {
    app,
    prompts: running.stk.prompts,
    log,
    tokens,
    clock,
    faults,
    initiators: running.initiators.book,
    ledger: running.money.ledger,
    outcomes: running.outcomes.outcomes,
    authority,
  };
}
