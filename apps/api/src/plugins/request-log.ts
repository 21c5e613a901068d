/**
 * One log line per request, when it is answered, with the callback secret and the history's search
 * text masked in its URL, and the client's address as every limit reads it.
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

/**
 * The history's search text (`q`) is often a payer's phone number, personal data the log must not
 * keep: its value is logged as `[redacted]`, however the key is spelled (`%71` is `q` too).
 */
export function redactSearchText(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const fields = url.slice(start + 1).split('&');
  const kept = fields.map((field) => {
    const key = field.split('=', 1)[0]!;
    return decodedKey(key) === 'q' ? `${key}=[redacted]` : field;
  });
  return `${url.slice(0, start)}?${kept.join('&')}`;
}

function decodedKey(key: string): string {
  try {
    return decodeURIComponent(key.replaceAll('+', ' '));
  } catch {
    return key;
  }
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
          url: redactSearchText(redactCallbackUrl(req.url)),
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
