/**
 * One Daraja API of the Result family as an operation of the simulator (docs/daraja-protocol.md
 * §M1): its route reads the request, checks the initiator's SecurityCredential, decides how the
 * request ends, acknowledges it, and owes its Result (owed.ts), which SIM_STATE keeps until it is
 * delivered. Transaction status, account balance and reversal are each one `ResultApi`; what
 * differs between them is what they read and how they decide.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DeliveryFault } from '../callbacks.ts';
import { RESULT_CODES, invalidField } from '../catalogue.ts';
import type { SimulatorConfig } from '../config.ts';
import { fail } from '../daraja/envelope.ts';
import type { DarajaGate } from '../daraja/gate.ts';
import type {
  DarajaOperation,
  OperationContext,
  RunningOperation,
} from '../operations/operation.ts';
import type { OutcomeMenu } from '../operations/outcomes/next-outcomes.ts';
import type { RouteDocs } from '../route-docs.ts';
import { OwedResultSchema, OwedResults } from './owed.ts';
import { readFields, type FieldReader, type ResultUrls } from './request-fields.ts';
import {
  acknowledgement,
  startConversation,
  type Conversation,
  type ResultItem,
} from './result.ts';

/** How a request ends, as its API decides it: the Result's code and what goes with it. */
export interface Decided {
  resultCode: string;
  resultDesc: string;
  /** A success's receipt; left out, the failure's placeholder. */
  transactionId?: string | undefined;
  parameters?: ResultItem[] | undefined;
  /** How the Result is to be delivered: a number's chosen next outcome (outcomes.take). */
  fault?: DeliveryFault | undefined;
}

/**
 * The Result family's codes beyond STK push's (catalogue.ts): reversal's two (§M7), and the
 * missing role B2C's table gives (§M4.4), which account balance plays for a shortcode not the
 * initiator's own (§M6.1).
 */
export const FAMILY_CODES: Readonly<Record<string, string>> = {
  ...RESULT_CODES,
  '21': 'The initiator is not allowed to initiate this request',
  R000001: 'The transaction has already been reversed',
  R000002: 'The OriginalTransactionID is invalid.',
};

/** A failure with Daraja's text for its code, and nothing else. */
export function failed(resultCode: string, fault?: DeliveryFault): Decided {
  return {
    resultCode,
    resultDesc: Object.hasOwn(FAMILY_CODES, resultCode)
      ? FAMILY_CODES[resultCode]!
      : 'The service request could not be processed.',
    fault,
  };
}

export interface ResultApi<Request extends ResultUrls, Key extends string> {
  /** Its folder's name, and its `api` for outcomes on demand. */
  name: string;
  /** What fault rules name its request. */
  target: string;
  path: string;
  /** The internal queue its Results' ReferenceItem names (`ab`, `reversal`…, §M1.3). */
  queue: string;
  /** Its key in the SIM_STATE file: the Results it owes. */
  keptKey: Key;
  /** What outcomes on demand can play for it, if anything (registered at start). */
  menu?: OutcomeMenu;
  /** Reads the request's own fields, in Daraja's order (Initiator and the credential are read after). */
  read(fields: FieldReader): Request;
  /** ReferenceItems in place of the QueueTimeoutURL one (transaction status: its Occasion). */
  reference?(request: Request): ResultItem[];
  /** How a request whose credential passed ends. `conversation` are its ids. */
  decide(request: Request, conversation: Conversation, context: OperationContext): Decided;
  docs(config: SimulatorConfig): Record<string, RouteDocs>;
}

export interface RunningResultApi extends RunningOperation {
  /** The Results it owes. */
  owed: OwedResults;
}

const OwedListSchema = z.array(OwedResultSchema).default([]);

function keptSchema<Key extends string>(key: Key) {
  const shape = { [key]: OwedListSchema };
  return z.object(shape as Record<Key, (typeof shape)[string]>);
}

type Kept<Key extends string> = ReturnType<typeof keptSchema<Key>>;

function routes<Request extends ResultUrls, Key extends string>(
  api: ResultApi<Request, Key>,
  context: OperationContext,
  owed: OwedResults,
) {
  const { config, clock, initiators } = context;
  return (app: FastifyInstance, gate: DarajaGate) => {
    app.all(api.path, async (request, reply) => {
      if (await gate.faulted(api.target, request, reply)) return reply;
      const body = gate.authorizedBody(request, reply);
      if (!body) return reply;
      const checked = readFields(body, config.strictLengths, api.read);
      if (!checked.ok) return fail(reply, invalidField(checked.field));
      const credential = initiators.check(body, 'Initiator');
      if (credential.kind === 'refused') return fail(reply, credential.failure);
      const conversation = startConversation(clock.now());
      const decided =
        credential.kind === 'failed'
          ? failed(credential.resultCode)
          : api.decide(checked.value, conversation, context);
      const { fault, ...ended } = decided;
      owed.owe({
        outcome: {
          conversation,
          queue: api.queue,
          reference: api.reference?.(checked.value),
          ...ended,
        },
        resultUrl: checked.value.resultUrl,
        queueTimeoutUrl: checked.value.queueTimeoutUrl,
        fault,
      });
      return reply.send(acknowledgement(conversation));
    });
  };
}

/** The operation of one Result API: its route, the Results it owes, and what SIM_STATE keeps. */
export function resultOperation<Request extends ResultUrls, Key extends string>(
  api: ResultApi<Request, Key>,
): DarajaOperation<RunningResultApi, Kept<Key>> {
  const kept = keptSchema(api.keptKey);
  const nothing = () => {};
  function start(context: OperationContext): RunningResultApi {
    const owed = new OwedResults(context);
    if (api.menu) context.outcomes.register(api.name, api.menu);
    return {
      owed,
      darajaRoutes: routes(api, context, owed),
      controlRoutes: nothing,
      snapshot: () => ({ [api.keptKey]: owed.snapshot() }),
      restore: (saved) => owed.restore(OwedListSchema.parse(saved[api.keptKey] ?? [])),
      keep(changed, saved) {
        owed.onChange = changed;
        owed.saved = saved;
        return () => {
          owed.onChange = undefined;
          owed.saved = undefined;
        };
      },
      hello: () => ({}),
      subscribe: () => nothing,
      watch: () => nothing,
      reset: () => owed.reset(),
    };
  }
  return {
    name: api.name,
    faultTargets: [api.target],
    kept,
    docs: api.docs,
    controlDocs: () => ({}),
    start,
  };
}
