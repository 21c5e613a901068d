/**
 * The development receiver's control routes (/_sim/webhooks/inbox): the shop's API POSTs its
 * webhooks here in simulator mode, and a developer (or a test) reads them back. Under the control
 * API's rule (remote-access.ts): only this machine reaches them, as the API that sends them.
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ControlApp } from '../operation.ts';
import { MAX_INBOX_BODY_BYTES, type WebhookInbox } from './webhook-inbox.ts';

export const FAIL_RULE = 'must be a whole number of attempts from 0 to 20';

const inboxQuery = z.object({
  fail: z.coerce
    .number({ error: FAIL_RULE })
    .int(FAIL_RULE)
    .min(0, FAIL_RULE)
    .max(20, FAIL_RULE)
    .default(0),
});

export function webhookRoutes(app: ControlApp, inbox: WebhookInbox) {
  app.get('/webhooks/inbox', async () => ({ entries: inbox.list() }));

  app.delete('/webhooks/inbox', async (_request, reply) => {
    inbox.clear();
    return reply.code(204).send();
  });

  // A scope of its own, whose only parser keeps any body as the exact text received: the
  // signature is over those bytes, and a receiver must be shown them before any JSON parsing.
  void app.register(async (scope) => {
    const raw = scope.withTypeProvider<ZodTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: MAX_INBOX_BODY_BYTES },
      (_request, body, done) => done(null, body),
    );
    raw.post('/webhooks/inbox', { schema: { querystring: inboxQuery } }, async (request, reply) => {
      const entry = inbox.receive({
        headers: request.headers,
        body: typeof request.body === 'string' ? request.body : '',
        fail: request.query.fail,
      });
      return reply.code(entry.status).send(
        entry.status === 200
          ? { received: true, id: entry.id }
          : {
              error: `Failing on purpose (?fail=${request.query.fail}): attempt ${entry.attempt}`,
            },
      );
    });
  });
}
