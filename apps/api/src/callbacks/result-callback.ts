/**
 * A Result API's callback route (docs/daraja-protocol.md §M1.3), as a refund's take them: the
 * body kept and applied by `take`, Daraja told it was taken, or rejected (400) when it is no Result
 * at all, as the STK callback's route does (stk-push.callback.ts). Daraja reads nothing more of the
 * answer (§M1.5).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { parseResult, type DarajaResult } from '../daraja/result-parser.ts';
import type { CallbackOutcome, Database } from '../db/schema.ts';
import { CALLBACK_ACCEPTED, callbackAnswers } from './callbacks.openapi.ts';
import type { CallbackHandler, ReceivedCallback } from './callback.routes.ts';
import { keepCallback, settleKeptCallback } from './kept-callback.ts';

export const RESULT_REJECTED = { ResultCode: 1, ResultDesc: 'Rejected: not a Daraja Result' };

const RESULT_ANSWERS = callbackAnswers({
  summary: 'Not a Daraja Result (it is stored all the same)',
  value: RESULT_REJECTED,
});

export function resultCallback(
  described: { summary: string; description: string },
  take: (callback: ReceivedCallback) => Promise<CallbackOutcome>,
): CallbackHandler {
  return {
    schema: {
      ...described,
      tags: ['M-PESA callback'],
      // Taken as text, whatever it holds: checked by the Result parser (daraja/result-parser.ts).
      body: z.unknown().meta({ description: 'A Daraja Result (docs/daraja-protocol.md §M1.3)' }),
      response: RESULT_ANSWERS,
    },
    async handle(callback, reply) {
      const outcome = await take(callback);
      if (outcome === 'invalid') return reply.code(400).send(RESULT_REJECTED);
      return reply.code(200).send(CALLBACK_ACCEPTED);
    },
  };
}

/**
 * A Result API's callback body kept first (kept-callback.ts), then read as a Daraja Result: the
 * kept callback's id and the Result, or `invalid` (the kept callback settled so, and logged) when
 * the body is no Result at all. Each feature then applies the Result as it does.
 */
export async function keepResult(
  deps: { db: Kysely<Database>; log: FastifyBaseLogger },
  callback: { kind: string; raw: string; ip: string | null; at: string },
): Promise<{ callbackId: string; result: DarajaResult } | 'invalid'> {
  const callbackId = await keepCallback(deps.db, callback);
  let body: unknown;
  try {
    body = JSON.parse(callback.raw);
  } catch {
    body = undefined;
  }
  const parsed = parseResult(body);
  if (!parsed.ok) {
    await settleKeptCallback(deps.db, callbackId, 'invalid');
    deps.log.warn(
      { kind: callback.kind, problem: parsed.problem },
      'result rejected: not a Daraja Result',
    );
    return 'invalid';
  }
  return { callbackId, result: parsed.result };
}
