/**
 * Builds the API and web server. `server.ts` runs it; tests call `buildApp` and `inject()`.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyServerOptions } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { DbHandle } from './db/create-db.ts';
import { dbRateLimitStore } from './limits/db-rate-limit-store.ts';
import { startReconciler } from './transactions/reconciler.ts';
import type { DarajaClient } from './daraja/daraja-client.ts';
import { AppError, registerErrorHandler } from './errors.ts';
import { transactionRoutes } from './transactions/transactions.routes.ts';
import { systemRoutes } from './system/system.routes.ts';

export interface AppDeps {
  config: Config;
  callbackSecret: string;
  database: DbHandle;
  daraja: DarajaClient;
  /** Run the reconciliation loop in this process (server.ts does; most tests call it directly). */
  reconcile?: boolean;
  now?: () => Date;
  /** false silences logging (most tests); a stream receives the log lines instead of stdout. */
  logger?: false;
  logStream?: NodeJS.WritableStream;
}

const CALLBACK_PATH = /(\/api\/mpesa\/callback\/)[^/?#]+/;

/** Request URLs are logged without the callback secret. */
export function redactUrl(url: string): string {
  return url.replace(CALLBACK_PATH, '$1[redacted]');
}

export async function buildApp(deps: AppDeps) {
  const { config } = deps;
  const logger: FastifyServerOptions['logger'] = deps.logger ?? {
    level: config.logLevel,
    ...(deps.logStream ? { stream: deps.logStream } : {}),
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
  const app = Fastify({
    logger,
    // Every other route takes no body worth more than this.
    bodyLimit: 16 * 1024,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: config.mpesa.env === 'production',
  });

  // Counters live in the database so that a limit holds across every instance.
  await app.register(fastifyRateLimit, {
    global: false,
    store: dbRateLimitStore(deps.database.db),
    errorResponseBuilder: () =>
      new AppError(
        429,
        'RATE_LIMITED',
        'Too many payment requests from your network. Please wait a minute and try again.',
      ),
  });

  const now = deps.now ?? (() => new Date());
  const callbackUrl = `${config.mpesa.callbackBaseUrl}/api/mpesa/callback/${deps.callbackSecret}`;
  const paymentDeps = {
    db: deps.database.db,
    dialect: deps.database.dialect,
    daraja: deps.daraja,
    callbackUrl,
    log: app.log,
    now,
    phoneCooldownS: config.limits.phoneCooldownS,
    reconcileAfterS: config.reconcile.afterS,
    // The slowest Daraja exchange, as the reconciliation lease measures it.
    pushDeadlineMs: config.reconcile.leaseMs,
  };
  if (deps.reconcile) {
    const reconciler = startReconciler({ ...paymentDeps, settings: config.reconcile });
    app.addHook('onClose', () => reconciler.stop());
  }
  await app.register(
    async (api) => {
      await api.register(transactionRoutes, {
        deps: paymentDeps,
        callbackSecret: deps.callbackSecret,
        callbackAllowedIps: config.callbackAllowedIps,
        rateLimit: { max: config.limits.stkPushPerWindow, windowS: config.limits.stkPushWindowS },
        bodyLimits: {
          paymentBytes: config.limits.paymentBodyBytes,
          callbackBytes: config.limits.callbackBodyBytes,
        },
      });
      await api.register(systemRoutes, { config, database: deps.database });
    },
    { prefix: '/api' },
  );

  const indexHtml = path.join(config.webDistDir, 'index.html');
  const webBuilt = fs.existsSync(indexHtml);
  if (webBuilt) {
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      wildcard: false,
      index: false,
      maxAge: '1h',
      setHeaders: (reply, filePath) => {
        // Hashed asset names never change content; index.html must always be fresh.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url;
    if (url.startsWith('/api/') || url === '/api' || request.method !== 'GET') {
      throw new AppError(404, 'NOT_FOUND', 'Not found');
    }
    if (!webBuilt) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app has not been built yet. Run "npm start", which builds it first.');
    }
    // Client-side routes (/transactions/…) all load the single-page app.
    return reply
      .header('Cache-Control', 'no-cache')
      .sendFile('index.html', { cacheControl: false });
  });

  return app;
}
