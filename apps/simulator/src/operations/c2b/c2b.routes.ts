/**
 * C2B's Daraja calls (docs/daraja-protocol.md §M3.1, §M3.2, §M3.6): register URL, which tells
 * M-PESA where a shortcode's validation and confirmation requests go, and simulate, the sandbox's
 * stand-in for a customer paying from the phone's menu. Each has a v1 and a v2 path; the version a
 * shortcode registered through decides the form of the payer's number in its notifications. The
 * gate (daraja/gate.ts) has drawn the fault rules and checked the method, the token and the JSON
 * body first.
 */
import type { FastifyInstance } from 'fastify';
import { invalidField, type Failure } from '../../catalogue.ts';
import type { SimClock } from '../../clock.ts';
import type { SimulatorConfig } from '../../config.ts';
import { fail } from '../../daraja/envelope.ts';
import type { DarajaGate } from '../../daraja/gate.ts';
import { requestId } from '../../ids.ts';
import type { C2bBook } from './c2b-book.ts';
import { C2bVersionSchema } from './c2b-kept.ts';
import type { C2bPayments } from './payments.ts';
import { checkRegister, checkSimulate } from './validation.ts';

/** The names fault rules give C2B's requests. */
export const C2B_TARGETS = { register: 'c2bregister', simulate: 'c2bsimulate' } as const;

export const registerPath = (version: string) => `/mpesa/c2b/${version}/registerurl`;
export const simulatePath = (version: string) => `/mpesa/c2b/${version}/simulate`;

/** Production's refusal of a second registration (§M3.1), under SIM_C2B_PRODUCTION_URLS. */
export const ALREADY_REGISTERED: Failure = [500, '500.003.1001', 'Urls are already registered.'];
export const REGISTERED = 'Success';
export const SIMULATED = 'Accept the service request successfully.';

/**
 * Both answers carry Safaricom's spelling, `OriginatorCoversationID` (no "n"), in the gateway's
 * hex style (§M3.1); the code a string.
 */
const answer = (id: string, description: string) => ({
  OriginatorCoversationID: id,
  ResponseCode: '0',
  ResponseDescription: description,
});

export function c2bRoutes(
  app: FastifyInstance,
  gate: DarajaGate,
  context: { config: SimulatorConfig; clock: SimClock; book: C2bBook; payments: C2bPayments },
) {
  const { config, clock, book, payments } = context;
  for (const version of C2bVersionSchema.options) {
    app.all(registerPath(version), async (request, reply) => {
      if (await gate.faulted(C2B_TARGETS.register, request, reply)) return reply;
      const body = gate.authorizedBody(request, reply);
      if (!body) return reply;
      const checked = checkRegister(body, config.c2bProductionUrls);
      if (!checked.ok) {
        return fail(reply, 'failure' in checked ? checked.failure : invalidField(checked.field));
      }
      if (!book.register(checked.value, version, clock.now(), config.c2bProductionUrls)) {
        return fail(reply, ALREADY_REGISTERED);
      }
      return reply.send(answer(requestId(), REGISTERED));
    });

    app.all(simulatePath(version), async (request, reply) => {
      if (await gate.faulted(C2B_TARGETS.simulate, request, reply)) return reply;
      const body = gate.authorizedBody(request, reply);
      if (!body) return reply;
      const checked = checkSimulate(body, config.strictLengths);
      if (!checked.ok) return fail(reply, invalidField(checked.field));
      const payment = payments.pay(checked.value, 'simulate');
      return reply.send(answer(payment.originatorConversationId, SIMULATED));
    });
  }
}
