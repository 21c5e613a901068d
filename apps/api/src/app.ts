/**
 * Builds the API and web server. `server.ts` runs it; tests call `buildApp` and `inject()`.
 *
 * The app is composed of plugins, one concern each (plugins/), registered in the order their hooks
 * must run: CORS first (so that every refusal after it carries its headers), then the guards that
 * turn requests away, the request log, the JSON parser, the security headers and compression;
 * then the API's routes under `/api`, the web app's files, and what is answered where no route is.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { CALLBACK_SECRET_LENGTH, type Config } from './config.ts';
import { routeMethods } from './lib/route-methods.ts';
import { callbackRoutes } from './callbacks/callback.routes.ts';
import { FEATURES, featureCallbacks, type FeatureContext } from './features/index.ts';
import type { Stoppable } from './features/feature.ts';
import { openApiRoutes, registerOpenApi } from './features/system/index.ts';
import { cookieNames, ownerChangeGate, registerOperators } from './features/operators/index.ts';
import { compression } from './plugins/compression.ts';
import { corsPlugin, createCors, type Cors } from './plugins/cors.ts';
import { errorAnswerOptions, errorHandler } from './plugins/error-handler.ts';
import { jsonParser } from './plugins/json-parser.ts';
import { notFound } from './plugins/not-found.ts';
import { requestGuards } from './plugins/request-guards.ts';
import { loggerOptions, requestLog } from './plugins/request-log.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { isWebAppBuilt, webAppFiles } from './plugins/web-app.ts';

import { featureContext, type AppDeps } from './app-deps.ts';

export type { AppDeps } from './app-deps.ts';

/**
 * Fastify (since 5.12.1) reads a number as "trust no proxy": a hop count cannot tell a proxy from a
 * client that reaches the app directly. TRUST_PROXY=<n> is spelled out instead, for deployments
 * that can only be reached through their proxies (config.ts warns about it at start-up).
 */
function trustProxyOption(setting: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

function createServer(deps: AppDeps, cors: Cors) {
  const { config } = deps;
  const { http } = config;
  const app = Fastify({
    logger: loggerOptions(config, deps),
    // Every other route takes no body worth more than this.
    bodyLimit: 16 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    // The longest path parameter is the callback secret; a longer one is answered 414.
    routerOptions: { maxParamLength: CALLBACK_SECRET_LENGTH.max },
    // Slow clients are cut (408); a request whose body has arrived is never timed out, however
    // long Daraja takes to answer it.
    http: {
      // Refused in our shape (request-guards.ts) instead of with Node's empty 400.
      requireHostHeader: false,
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      connectionsCheckingInterval: http.checkIntervalMs,
    },
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    // Answered in our own shape instead (request-guards.ts).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // One line per request, when it is answered (request-log.ts), instead of two.
    logController: new LogController({ disableRequestLogging: true }),
    ...errorAnswerOptions(cors),
  }).withTypeProvider<ZodTypeProvider>();
  // A client may half-close (send its FIN) once its request is sent: it still reads the answer.
  // Node's server would end the socket at the FIN, before a payment's answer is written.
  // (A property of http.Server that @types/node does not declare.)
  Object.assign(app.server, { httpAllowHalfOpen: true });
  return app;
}

/**
 * The API's routes, registered under `/api`: the operators' sign-in first, then each feature's in
 * the list's order (features/index.ts), the callbacks' routes with each kind's handler, and the
 * API description last.
 */
async function registerApi(app: FastifyInstance, deps: AppDeps, context: FeatureContext) {
  const { config, database, now } = context;
  await app.register(
    async (api) => {
      const guards = await registerOperators(api, { config, db: database.db, now });
      const ownerGate = ownerChangeGate({ config, db: database.db, now });
      for (const feature of FEATURES)
        await feature.routes?.(api, { ...context, guards, ownerGate });
      await api.register(callbackRoutes, {
        secret: deps.callbackSecret,
        allowedIps: config.callbackAllowedIps,
        bodyLimit: config.limits.callbackBodyBytes,
        kinds: featureCallbacks(context),
      });
      // /api/openapi.json and the page /api/docs.
      await api.register(openApiRoutes, { document: () => app.swagger() });
    },
    { prefix: '/api' },
  );
}

/** Starts each feature's background rounds and what it starts once listening; stops them at close. */
function startFeatures(app: FastifyInstance, deps: AppDeps, context: FeatureContext): void {
  if (deps.reconcile) {
    for (const feature of FEATURES) {
      for (const loop of feature.loops?.(context) ?? []) app.addHook('onClose', () => loop.stop());
    }
  }
  const started: Stoppable[] = [];
  app.addHook('onListen', async () => {
    for (const feature of FEATURES) {
      const thing = feature.onListen?.(context);
      if (thing) started.push(thing);
    }
  });
  app.addHook('onClose', async () => {
    for (const thing of started) await thing.stop();
  });
}

export async function buildApp(deps: AppDeps) {
  const { config } = deps;
  const cors = createCors(config.corsOrigins);
  const app = createServer(deps, cors);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorHandler);
  // First of the hooks, so that the refusals below carry the CORS headers too.
  await app.register(corsPlugin, { cors });
  await app.register(requestGuards);
  await app.register(requestLog);
  await app.register(jsonParser);
  await app.register(securityHeadersPlugin, {
    strictTransportSecurity: config.mpesa.env === 'production',
  });
  await app.register(compression);

  const context = featureContext(deps, app);
  startFeatures(app, deps, context);
  // Which methods each address answers, for the not-found handler's 405.
  const methodsAt = routeMethods(app);
  // The API's description, collected from the routes registered after it.
  await registerOpenApi(app, { sessionCookie: cookieNames(config.operators.cookieSecure).session });
  await registerApi(app, deps, context);

  const webBuilt = isWebAppBuilt(config.webDistDir);
  if (webBuilt) await app.register(webAppFiles, { root: config.webDistDir });
  await app.register(notFound, { methodsAt, webBuilt });
  return app;
}
