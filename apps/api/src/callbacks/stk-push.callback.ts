/**
 * STK push's result callback (docs/daraja-protocol.md §4): kept as received and applied to its
 * payment (transactions/callbacks.service.ts); Daraja is told whether it was taken.
 */
import { z } from 'zod';
import { applyCallback } from '../transactions/callbacks.service.ts';
import type { PaymentDeps } from '../transactions/transactions.service.ts';
import {
  ANSWERS,
  CALLBACK_ACCEPTED,
  CALLBACK_BODY,
  CALLBACK_REJECTED,
  DESCRIBED,
} from '../transactions/transactions.answers.ts';
import type { CallbackHandler } from './callback.routes.ts';

export function stkPushCallback(deps: PaymentDeps): CallbackHandler {
  return {
    schema: {
      ...DESCRIBED.callback,
      // Taken as text, whatever it holds: described here, checked by the callback parser.
      body: z.unknown().meta(CALLBACK_BODY),
      response: ANSWERS.callback,
    },
    async handle({ raw, ip, log }, reply) {
      const result = await applyCallback({ ...deps, log }, raw, ip);
      if (result.outcome === 'invalid') {
        return reply.code(400).send(CALLBACK_REJECTED);
      }
      return reply.code(200).send(CALLBACK_ACCEPTED);
    },
  };
}
