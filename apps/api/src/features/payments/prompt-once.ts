/**
 * A route that sends a prompt (the payment form's, a payment link's) with the Idempotency-Key
 * header honoured: without one the prompt is asked for; with one it is asked for once per key
 * (idempotency.ts), and the same request sent again gets the first answer back, marked
 * `Idempotent-Replayed: true`.
 */
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { withIdempotencyKey } from './idempotency.ts';

export async function promptOnce<Answer extends { transactionId: string }>(
  reply: FastifyReply,
  deps: { db: Kysely<Database>; now: () => Date },
  idempotency: { key: string | undefined; abandonedAfterMs: number },
  /** What the key must be sent again with: a different request under the same key is refused. */
  request: unknown,
  prompt: (key?: string) => Promise<Answer>,
): Promise<Answer | FastifyReply> {
  const { key, abandonedAfterMs } = idempotency;
  if (key === undefined) return prompt();
  const answer = await withIdempotencyKey(
    deps.db,
    { key, abandonedAfterMs },
    request,
    deps.now(),
    async () => {
      const body = await prompt(key);
      return { statusCode: 200, body, transactionId: body.transactionId };
    },
  );
  if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
  // A replay sends back whatever the first request was answered, success or failure.
  return reply.code(answer.statusCode as 200).send(answer.body as never);
}
