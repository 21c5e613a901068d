/**
 * The route of a payment of the Result family, B2C's and B2B's (docs/daraja-protocol.md §M1,
 * §M4.5): the gate (fault rules, method, token, JSON body), the fields, the initiator's credential,
 * then the acknowledgement at once and the Result owed (results/owed.ts). What the payment does is
 * the API's `decide`.
 */
import type { FastifyInstance } from 'fastify';
import { invalidField, type Failure } from '../../catalogue.ts';
import type { DeliveryFault } from '../../callbacks.ts';
import { fail } from '../../daraja/envelope.ts';
import type { DarajaGate, Fields } from '../../daraja/gate.ts';
import type { OwedResults } from '../../results/owed.ts';
import {
  acknowledgement,
  startConversation,
  type Conversation,
  type ResultOutcome,
} from '../../results/result.ts';
import type { InitiatorCheck, InitiatorField } from '../initiators/initiator-book.ts';
import type { OperationContext } from '../operation.ts';
import type { Checked } from './fields.ts';

interface Payment {
  resultUrl: string;
  queueTimeoutUrl: string;
}

export interface PaymentRoute<Request extends Payment> {
  path: string;
  /** The name fault rules give it. */
  target: string;
  /** `InitiatorName` (B2C) or `Initiator` (the others). */
  nameField: InitiatorField;
  check(body: Fields): Checked<Request>;
  /** The client's OriginatorConversationID (B2C v3); the gateway makes one when undefined. */
  originatorId?(request: Request): string | undefined;
  /** A refusal after the fields, before the credential is checked (B2C v3's repeated id). */
  refuse?(request: Request): Failure | undefined;
  /** The payment, decided now: what its Result will say, and how it is to be delivered. */
  decide(
    request: Request,
    credential: Exclude<InitiatorCheck, { kind: 'refused' }>,
    conversation: Conversation,
    now: Date,
  ): { outcome: ResultOutcome; fault: DeliveryFault };
}

export function paymentRoute<Request extends Payment>(
  app: FastifyInstance,
  gate: DarajaGate,
  { clock, initiators }: Pick<OperationContext, 'clock' | 'initiators'>,
  owed: OwedResults,
  route: PaymentRoute<Request>,
) {
  app.all(route.path, async (request, reply) => {
    if (await gate.faulted(route.target, request, reply)) return reply;
    const body = gate.authorizedBody(request, reply);
    if (!body) return reply;
    const checked = route.check(body);
    if (!checked.ok) return fail(reply, invalidField(checked.field));
    const payment = checked.value;
    const refused = route.refuse?.(payment);
    if (refused) return fail(reply, refused);
    const credential = initiators.check(body, route.nameField);
    if (credential.kind === 'refused') return fail(reply, credential.failure);
    const now = clock.now();
    const conversation = startConversation(now, route.originatorId?.(payment));
    const { outcome, fault } = route.decide(payment, credential, conversation, now);
    const { resultUrl, queueTimeoutUrl } = payment;
    owed.owe({ outcome, resultUrl, queueTimeoutUrl, fault });
    return reply.send(acknowledgement(conversation));
  });
}
