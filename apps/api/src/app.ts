/**
 * Builds the API and web server. `server.ts` runs it; tests call `buildApp` and `inject()`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import fastifyCompress from '@fastify/compress';
import pino from 'pino';
import fastifyStatic from '@fastify/static';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { CALLBACK_SECRET_LENGTH, type Config } from './config.ts';
import type { DbHandle } from './db/create-db.ts';
import { startReconciler } from './transactions/reconciler.ts';
import type { DarajaClient } from './daraja/daraja-client.ts';
import {
  AppError,
  NOT_FOUND_MESSAGE,
  answerClientError,
  answerError,
  answerNodeRefusals,
  forbiddenKey,
  methodNotAllowed,
  shuttingDown,
} from './errors.ts';
import { apiPath } from './lib/api-path.ts';
import { clientAddress } from './lib/client-address.ts';
import { routeMethods } from './lib/route-methods.ts';
import { transactionRoutes } from './transactions/transactions.routes.ts';
import { transactionEventRoutes } from './transactions/events.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { openApiRoutes, registerOpenApi } from './system/openapi.ts';
import { securityHeaders } from './security-headers.ts';
import { createCors, registerCors } from './cors.ts';

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

/**
 * Fastify (since 5.12.1) reads a number as "trust no proxy": a hop count cannot tell a proxy from a
 * client that reaches the app directly. TRUST_PROXY=<n> is spelled out instead, for deployments
 * that can only be reached through their proxies (config.ts warns about it at start-up).
 */
function trustProxyOption(setting: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/**
 * Fastify's JSON parser refuses "__proto__" and "constructor.prototype" keys (prototype poisoning)
 * but calls that invalid JSON too: a refused body that is valid JSON was refused for its keys, and
 * is told so.
 */
function registerJsonParser(app: FastifyInstance): void {
  const secureParse = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: (error: FastifyError | null, value?: unknown) => void,
  ) => void;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    secureParse(request, text, (error, value) => {
      if (error?.code !== 'FST_ERR_CTP_INVALID_JSON_BODY') return done(error, value);
      try {
        JSON.parse(text);
      } catch {
        return done(error);
      }
      done(forbiddenKey());
    });
  });
}

export async function buildApp(deps: AppDeps) {
  const { config } = deps;
  const logger: FastifyServerOptions['logger'] = deps.logger ?? {
    level: config.logLevel,
    // Written without holding up the request: lines that come while a write is under way go
    // out together with the next (and whatever is left is written when the process exits).
    stream: deps.logStream ?? pino.destination({ dest: 1, sync: false }),
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: clientAddress(req),
      }),
    },
  };
  const { http } = config;
  const cors = createCors(config.corsOrigins);
  const app = Fastify({
    logger,
    // Every other route takes no body worth more than this.
    bodyLimit: 16 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    // The longest path parameter is the callback secret; a longer one is answered 414.
    routerOptions: { maxParamLength: CALLBACK_SECRET_LENGTH.max },
    // Slow clients are cut (408); a request whose body has arrived is never timed out, however
    // long Daraja takes to answer it.
    http: {
      // Refused in our shape below instead of with Node's empty 400.
      requireHostHeader: false,
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      connectionsCheckingInterval: http.checkIntervalMs,
    },
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    // Answered below in our own shape instead.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // The router's refusals pass no hook: their answers get the CORS headers here.
    frameworkErrors: (error, request, reply) => {
      cors.addHeaders(request, reply);
      return answerError(error, request, reply);
    },
    // One line per request, when it is answered (below), instead of two.
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(answerError);
  // First of the hooks, so that the refusals below carry the CORS headers too.
  registerCors(app, cors);

  // Once closing, requests still arriving on open connections are turned away (the process is
  // draining; a load balancer retries elsewhere).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      reply.header('Connection', 'close');
      throw shuttingDown();
    }
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      throw new AppError(
        400,
        'BAD_REQUEST',
        'The request has no Host header (HTTP/1.1 requires one)',
      );
    }
  });
  answerNodeRefusals(app.server);
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  });

  registerJsonParser(app);

  const security = securityHeaders({
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
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(security);
    done();
  });

  // Answers of 1 KB or more go out compressed to clients that accept it (before the static files'
  // plugin, whose prepared .br and .gz files it leaves as they are). Request bodies are never
  // inflated: every route takes at most 16 KB as sent.
  // The fastest levels: a CSV export of a million rows is 190 MB, and at the plugin's defaults
  // compressing it took longer than making it (brotli 4: 55 MB/s against 254 at 1, for 24 % of
  // the size against 26 %; gzip 6: 75 MB/s against 141 at 1, 25 % against 28 %). The built files
  // come compressed at the highest levels from the build.
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
    zlibOptions: { level: 1 },
    globalDecompression: false,
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
  // Which methods each address answers, for the not-found handler's 405.
  const methodsAt = routeMethods(app);
  // The API's description, collected from the routes registered after it.
  await registerOpenApi(app);
  await app.register(
    async (api) => {
      await api.register(transactionRoutes, {
        deps: paymentDeps,
        callbackSecret: deps.callbackSecret,
        callbackAllowedIps: config.callbackAllowedIps,
        rateLimit: {
          max: config.limits.stkPushPerWindow,
          requestsMax: config.limits.stkPushRequestsPerWindow,
          windowS: config.limits.stkPushWindowS,
        },
        bodyLimits: {
          paymentBytes: config.limits.paymentBodyBytes,
          callbackBytes: config.limits.callbackBodyBytes,
        },
        // Past every wait a request can make for the database before its payment is saved.
        idempotencyKeyAbandonedMs:
          config.databaseTimeouts.connectMs +
          config.databaseTimeouts.statementMs +
          config.databaseTimeouts.busyMs +
          30_000,
        exportLimits: {
          max: config.limits.exportsRunning,
          stallMs: config.limits.exportStallMs,
        },
        businessTimeZone: config.businessTimeZone,
      });
      await api.register(transactionEventRoutes, { deps: paymentDeps });
      await api.register(systemRoutes, { config, database: deps.database });
      // /api/openapi.json and the page /api/docs.
      await api.register(openApiRoutes, { document: () => app.swagger() });
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
      // The build leaves brotli and gzip copies beside each text file (apps/web/tooling): sent to
      // browsers that accept them, with Content-Encoding and Vary: Accept-Encoding; never served
      // under their own names.
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (reply, filePath) => {
        // Hashed asset names never change content; index.html must always be fresh.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const { method } = request;
    const api = apiPath(request.url);
    // HEAD is answered as GET is, without the body (Node leaves it out): monitors and link
    // checkers ask a page with HEAD.
    if (api !== undefined || (method !== 'GET' && method !== 'HEAD')) {
      // OPTIONS is the CORS preflight's (cors.ts): one it does not answer stays not found.
      const known = api !== undefined && method !== 'OPTIONS';
      const allowed = known ? methodsAt(api) : [];
      if (allowed.length > 0 && !allowed.includes(method)) {
        throw methodNotAllowed(method, allowed);
      }
      throw new AppError(404, 'NOT_FOUND', NOT_FOUND_MESSAGE);
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
