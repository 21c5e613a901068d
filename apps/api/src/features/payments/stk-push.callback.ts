/**
 * STK push's result callback (docs/daraja-protocol.md §4): kept as received and applied to its
 * payment (features/payments/apply-report.ts); Daraja is told whether it was taken.
 */
import { z } from 'zod';
import { applyCallback } from './apply-report.ts';
import type { PaymentDeps } from './transactions.service.ts';
import { ANSWERS, CALLBACK_BODY, DESCRIBED } from './payments.openapi.ts';
import { CALLBACK_ACCEPTED, CALLBACK_REJECTED } from '../../callbacks/callbacks.openapi.ts';
import type { CallbackHandler } from '../../callbacks/callback.routes.ts';

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
