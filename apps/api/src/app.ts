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
import { startReconciler, payerCheckRoutes } from './features/reconciliation/index.ts';
import { startPhoneRetention } from './features/privacy/index.ts';
import { routeMethods } from './lib/route-methods.ts';
import { transactionRoutes } from './features/payments/index.ts';
import { historyRoutes, transactionEventRoutes } from './features/history/index.ts';
import type { PaymentDeps } from './features/payments/index.ts';
import { callbackRoutes } from './callbacks/callback.routes.ts';
import { refundRoutes, startRefundRecovery } from './features/refunds/index.ts';
import { startC2bRegistration, receiptCheckRoutes } from './features/c2b/index.ts';
import { systemRoutes, openApiRoutes, registerOpenApi } from './features/system/index.ts';
import {
  authDepsFor,
  openPaymentPageRecogniser,
  ownerChangeGate,
  registerOperators,
  cookieNames,
} from './features/operators/index.ts';
import { startDeliverer, systemResolve, webhookRoutes } from './features/webhooks/index.ts';
import { reviewRoutes } from './features/review/index.ts';
import { compression } from './plugins/compression.ts';
import { corsPlugin, createCors, type Cors } from './plugins/cors.ts';
import { errorAnswerOptions, errorHandler } from './plugins/error-handler.ts';
import { jsonParser } from './plugins/json-parser.ts';
import { notFound } from './plugins/not-found.ts';
import { requestGuards } from './plugins/request-guards.ts';
import { loggerOptions, requestLog } from './plugins/request-log.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { isWebAppBuilt, webAppFiles } from './plugins/web-app.ts';

import {
  c2bDepsOf,
  callbackHandlers,
  callbackUrlsOf,
  paymentDepsFor,
  refundDepsFor,
  type AppDeps,
} from './app-deps.ts';

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

/** The owner's webhook routes (webhooks/), where there are owners. */
async function registerWebhooks(api: FastifyInstance, deps: AppDeps, now: () => Date) {
  const { config, database } = deps;
  await api.register(webhookRoutes, {
    auth: authDepsFor({ config, db: database.db, now }),
    service: {
      db: database.db,
      now,
      policy: config.webhooks,
      resolve: deps.resolve ?? systemResolve,
    },
    corsOrigins: config.corsOrigins,
  });
}

/** The API's routes, registered under `/api`. */
async function registerApi(app: FastifyInstance, deps: AppDeps, paymentDeps: PaymentDeps) {
  const { config, database } = deps;
  const refundDeps = refundDepsFor(deps, paymentDeps);
  const ownerGate = ownerChangeGate({ config, db: database.db, now: paymentDeps.now });
  const { limits, databaseTimeouts } = config;
  await app.register(
    async (api) => {
      const guards = await registerOperators(api, {
        config,
        db: database.db,
        now: paymentDeps.now,
      });
      await api.register(transactionRoutes, {
        deps: paymentDeps,
        paymentGuard: guards?.payment,
        rateLimit: {
          max: limits.stkPushPerWindow,
          requestsMax: limits.stkPushRequestsPerWindow,
          windowS: limits.stkPushWindowS,
        },
        bodyLimits: { paymentBytes: limits.paymentBodyBytes },
        // Past every wait a request can make for the database before its payment is saved.
        idempotencyKeyAbandonedMs:
          databaseTimeouts.connectMs +
          databaseTimeouts.statementMs +
          databaseTimeouts.busyMs +
          30_000,
      });
      await api.register(historyRoutes, {
        deps: paymentDeps,
        historyGuard: guards?.read,
        exportGuard: guards?.export,
        paymentPageGuard: guards?.paymentPage,
        openPageRecogniser: guards
          ? undefined
          : openPaymentPageRecogniser({ config, db: database.db, now: paymentDeps.now }),
        exportLimits: { max: limits.exportsRunning, stallMs: limits.exportStallMs },
        businessTimeZone: config.businessTimeZone,
        phoneRetentionDays: config.phoneRetentionDays,
      });
      await api.register(callbackRoutes, {
        secret: deps.callbackSecret,
        allowedIps: config.callbackAllowedIps,
        bodyLimit: limits.callbackBodyBytes,
        handlers: callbackHandlers(deps, paymentDeps, refundDeps),
      });
      await api.register(receiptCheckRoutes, {
        deps: {
          ...c2bDepsOf(deps, paymentDeps),
          log: app.log,
          money: deps.money,
          callbackUrlFor: callbackUrlsOf(deps),
        },
        gate: guards?.takePayments,
      });
      await api.register(payerCheckRoutes, {
        deps: paymentDeps,
        paymentPageGuard: guards?.paymentPage,
      });
      await api.register(transactionEventRoutes, {
        deps: paymentDeps,
        historyGuard: guards?.read,
      });
      // An owner's review and webhook screens, where there are owners' screens
      // (HISTORY_ACCESS=operators); `npm run review` reviews in open mode.
      if (guards) {
        await api.register(reviewRoutes, { db: database.db, now: paymentDeps.now, ownerGate });
        await registerWebhooks(api, deps, paymentDeps.now);
      }
      // Whatever HISTORY_ACCESS says: a signed-in owner, even where the history is open to all.
      await api.register(refundRoutes, { deps: refundDeps, ownerGate });
      await api.register(systemRoutes, { config, database });
      // /api/openapi.json and the page /api/docs.
      await api.register(openApiRoutes, { document: () => app.swagger() });
    },
    { prefix: '/api' },
  );
}

/** Registers the C2B URLs in the background once the app listens (never stopping it). */
function registerC2bOnListen(app: FastifyInstance, deps: AppDeps): void {
  const settings = deps.config.c2b;
  if (!deps.registerC2b || !deps.money || settings?.register !== 'start') return;
  const money = deps.money;
  let registration: ReturnType<typeof startC2bRegistration> | undefined;
  app.addHook('onListen', async () => {
    registration = startC2bRegistration({
      money,
      settings,
      callbackUrlFor: callbackUrlsOf(deps),
      log: app.log,
    });
  });
  app.addHook('onClose', async () => registration?.stop());
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

  const paymentDeps = paymentDepsFor(deps, app);
  if (deps.reconcile) {
    const reconciler = startReconciler({ ...paymentDeps, settings: config.reconcile });
    app.addHook('onClose', () => reconciler.stop());
    // Beside it: a refund whose Result did not come is asked about (refund-recovery.ts).
    const recovery = startRefundRecovery(
      refundDepsFor(deps, paymentDeps),
      config.reconcile.intervalMs,
    );
    app.addHook('onClose', () => recovery.stop());
    // Beside the reconciler, in every instance that runs it (phone-retention.ts).
    const days = config.phoneRetentionDays;
    if (days !== undefined) {
      const retention = startPhoneRetention({ ...paymentDeps, days });
      app.addHook('onClose', () => retention.stop());
    }
    // The outbox's events, sent by every instance that reconciles (features/webhooks/deliverer.ts).
    const deliverer = startDeliverer({
      db: deps.database.db,
      now: paymentDeps.now,
      log: app.log,
      settings: config.webhooks,
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    });
    app.addHook('onClose', () => deliverer.stop());
  }
  registerC2bOnListen(app, deps);
  // Which methods each address answers, for the not-found handler's 405.
  const methodsAt = routeMethods(app);
  // The API's description, collected from the routes registered after it.
  await registerOpenApi(app, { sessionCookie: cookieNames(config.operators.cookieSecure).session });
  await registerApi(app, deps, paymentDeps);

  const webBuilt = isWebAppBuilt(config.webDistDir);
  if (webBuilt) await app.register(webAppFiles, { root: config.webDistDir });
  await app.register(notFound, { methodsAt, webBuilt });
  return app;
}
