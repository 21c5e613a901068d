/**
 * One log line per request, when it is answered, with the callback secret masked in its URL and
 * the client's address as every limit reads it.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import pino from 'pino';
import { redactCallbackUrl } from '../callbacks/callback-paths.ts';
import type { Config } from '../config.ts';
import { clientAddress } from '../lib/client-address.ts';

export interface LoggerSettings {
  /** false silences logging (most tests); a stream receives the log lines instead of stdout. */
  logger?: false;
  logStream?: NodeJS.WritableStream;
}

/** The logger the app is built with. */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
  settings: LoggerSettings,
): FastifyServerOptions['logger'] {
  return (
    settings.logger ?? {
      level: config.logLevel,
      // Written without holding up the request: lines that come while a write is under way go
      // out together with the next (and whatever is left is written when the process exits).
      stream: settings.logStream ?? pino.destination({ dest: 1, sync: false }),
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactCallbackUrl(req.url),
          remoteAddress: clientAddress(req),
        }),
      },
    }
  );
}

/** The line itself (Fastify's own two lines per request are turned off in app.ts). */
export const requestLog = fp(
  async (app) => {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { req: request, res: reply, responseTime: reply.elapsedTime },
        'request completed',
      );
      done();
    });
  },
  { name: 'request-log' },
);
