/**
 * Bounds on CSV exports, which hold a connection, a database cursor's worth of work and memory for
 * as long as their client reads: at most EXPORT_MAX_RUNNING at once in this instance (one more is
 * answered 429 with Retry-After), and a client that reads nothing for EXPORT_STALL_TIMEOUT_MS is
 * cut. Without them a few clients that start exports and stop reading (a slow-read attack) would
 * hold connections and memory for ever.
 */
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.ts';

/** How soon a refused export is told to ask again: a short export takes seconds. */
export const EXPORT_RETRY_AFTER_S = 10;

export const tooManyExports = () =>
  new AppError(
    429,
    'TOO_MANY_EXPORTS',
    'Other exports are under way on this server. Please try again in a few seconds.',
    { retryAfterS: EXPORT_RETRY_AFTER_S },
  );

export interface ExportLimit {
  /**
   * Takes a place for the export that `reply` will send (or throws tooManyExports), given back when
   * the answer ends, whether finished, cut or abandoned; from now on the client is cut if it reads
   * nothing for the stall time.
   */
  start(reply: FastifyReply): void;
  /** Exports under way now. */
  readonly running: number;
}

export function exportLimit({ max, stallMs }: { max: number; stallMs: number }): ExportLimit {
  let running = 0;
  return {
    start(reply) {
      if (running >= max) throw tooManyExports();
      running++;
      const response = reply.raw;
      response.once('close', () => running--);
      // The socket's own inactivity timer: nothing written to the client (it reads nothing, so
      // its window stays full) and nothing read from it for `stallMs`. Node sets the socket's
      // keep-alive timeout again once the answer is done.
      response.setTimeout(stallMs, () => {
        reply.log.warn({ stallMs }, 'export cut: the client read nothing');
        response.destroy();
      });
    },
    get running() {
      return running;
    },
  };
}
