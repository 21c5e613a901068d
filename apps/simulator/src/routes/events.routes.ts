/**
 * GET /_sim/events: server-sent events, each Daraja API's (a prompt's changes, a reset) and the
 * log's entries, as they happen. A phone page passes watch=1 (and optionally a phone) so that
 * auto-approval waits while a person is looking at the prompt.
 */
import { z } from 'zod';
import type { ControlApp, RunningOperation } from '../operations/operation.ts';
import type { RequestLog } from '../request-log.ts';
import { phoneParam } from './phone-param.ts';

export function eventsRoute(app: ControlApp, log: RequestLog, operations: RunningOperation[]) {
  app.get(
    '/events',
    {
      schema: {
        querystring: z.object({
          watch: z.enum(['0', '1']).default('0'),
          phone: phoneParam.optional(),
        }),
      },
    },
    async (request, reply) => {
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
      });
      const send = (event: string, data: unknown) =>
        raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const hello = Object.assign({}, ...operations.map((operation) => operation.hello()));
      send('hello', { ...hello, log: log.list({ limit: 100 }) });
      const stops = operations.map((operation) => operation.subscribe(send));
      const onEntry = (entry: unknown) => send('log', entry);
      log.on('entry', onEntry);
      const phone = request.query.phone ?? '*';
      const unwatch =
        request.query.watch === '1' ? operations.map((operation) => operation.watch(phone)) : [];
      const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
      // The client's FIN ends the stream at once. The server keeps a half-closed connection open
      // so as to answer a request sent whole (app.ts), but a stream has nothing more to answer:
      // its watcher is gone, and auto-approval must not wait for the next keep-alive to learn it.
      request.raw.socket.once('end', () => raw.destroy());
      reply.raw.on('close', () => {
        clearInterval(keepAlive);
        for (const stop of stops) stop();
        log.off('entry', onEntry);
        for (const stop of unwatch) stop();
      });
    },
  );
}
