/**
 * Bounds on CSV exports, which hold a connection, a database cursor's worth of work and memory for
 * as long as their client reads: at most EXPORT_MAX_RUNNING at once in this instance (one more is
 * answered 429 with Retry-After), and a client that reads nothing for EXPORT_STALL_TIMEOUT_MS is
 * cut. Without them a few clients that start exports and stop reading (a slow-read attack) would
 * hold connections and memory for ever.
 */
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';
import { tooManyExports } from '../../errors.ts';

/** How soon a refused export is told to ask again: a short export takes seconds. */
export const EXPORT_RETRY_AFTER_S = 10;

/** Checks in a row that must see no progress before an export is cut. */
const QUIET_CHECKS = 3;

export interface ExportLimit {
  /**
   * Takes a place for the export that `reply` will send (or throws tooManyExports), given back when
   * the answer ends, whether finished, cut or abandoned.
   */
  start(reply: FastifyReply): ExportWatch;
}

export interface ExportWatch {
  /**
   * Called each time the export makes more of its answer, which it does only as fast as the client
   * takes it in. The first call starts the clock: from then on, an export that makes nothing for the
   * stall time is cut, since its client has read nothing (its buffers are full).
   */
  progress(): void;
}

export function exportLimit({ max, stallMs }: { max: number; stallMs: number }): ExportLimit {
  let running = 0;
  return {
    start(reply) {
      if (running >= max) throw tooManyExports(EXPORT_RETRY_AFTER_S);
      running++;
      let last: number | undefined;
      let flushed = 0;
      let quiet = 0;
      // Progress is what counts: more of the answer made, or more of it taken by the client's
      // side (the socket's writes that finished). The socket's own idle timer is not enough: a
      // client reading steadily but slowly keeps the send buffer full, so it looks idle between
      // the lumps in which its writes finish, and was cut.
      const check = setInterval(
        () => {
          const socket = reply.raw.socket as
            (Socket & { _handle?: { writeQueueSize?: number } }) | null;
          // Bytes handed over, less those still waiting in Node and in libuv: what the kernel has
          // taken. libuv's queue (which Node's own timeout checks too) goes down as the client
          // reads, while Node counts a write done only once all of it has gone.
          const taken = socket
            ? socket.bytesWritten - socket.writableLength - (socket._handle?.writeQueueSize ?? 0)
            : flushed;
          if (taken !== flushed) {
            flushed = taken;
            quiet = 0;
            if (last !== undefined) last = Date.now();
            return;
          }
          // Several checks in a row, each after the event loop has had its turn at the socket's
          // news: a check that follows a busy spell of the process runs before the writes that
          // finished meanwhile are counted, and would take that for the client's silence.
          quiet++;
          if (last === undefined || quiet < QUIET_CHECKS || Date.now() - last < stallMs) return;
          reply.log.warn({ stallMs }, 'export cut: the client read nothing');
          reply.raw.destroy();
        },
        Math.min(1000, Math.max(10, Math.floor(stallMs / 4))),
      );
      check.unref();
      reply.raw.once('close', () => {
        clearInterval(check);
        running--;
      });
      return {
        progress() {
          last = Date.now();
          quiet = 0;
        },
      };
    },
  };
}
