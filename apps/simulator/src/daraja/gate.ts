/**
 * What stands before every Daraja call: the fault rules drawn on it, then, for an M-PESA API call,
 * the method, the bearer token and a JSON body. Each operation's routes go through it.
 */
import { setTimeout as wait } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, REFUSALS } from '../catalogue.ts';
import { isRefusal, type FaultPlan } from '../faults.ts';
import type { TokenStore } from '../tokens.ts';
import { fail, methodNotAllowed } from './envelope.ts';

export type Fields = Record<string, unknown>;

export interface DarajaGate {
  /**
   * The fault rules for this request (`target`: a name fault-rules.ts lists): waits the latency
   * they draw, then answers with their error if one applies. Returns whether it answered.
   */
  faulted(target: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** The checks every M-PESA API call passes first: method, bearer token, JSON body. */
  authorizedBody(request: FastifyRequest, reply: FastifyReply): Fields | undefined;
}

/** The requests a `lose-answer` rule drew: carried out, and their answers never sent. */
const answersToLose = new WeakSet<FastifyReply>();

/**
 * Whether this reply's answer is to be lost (a `lose-answer` rule): the scope's last onSend hook
 * (scopes.ts) then logs the request with no status and closes the connection instead of answering,
 * after the request's work and the state file's save are done.
 */
export function answerIsLost(reply: FastifyReply): boolean {
  return answersToLose.has(reply);
}

/** What a proxy in front of Daraja answers when Daraja does not: a 5xx page, not Daraja's JSON. */
const GATEWAY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>\n';

export function darajaGate({
  tokens,
  faults,
  onDropped,
}: {
  tokens: TokenStore;
  faults: FaultPlan;
  /** A fault closed the connection of this request with no answer (the log records it). */
  onDropped?: ((request: FastifyRequest, reply: FastifyReply) => void) | undefined;
}): DarajaGate {
  /**
   * The latency is waited in real time (the simulator's clock may be moved). The rules are drawn
   * first, before the method, the token and the body are looked at: Daraja's spike arrest, quota
   * and busy refusals come from the gateway in front of it (Apigee, docs/daraja-protocol.md §1),
   * as do a dropped connection and a proxy's 502, and none of them depends on what the request
   * says. So a faulted push is refused whatever its body, and prompts no phone.
   */
  async function faulted(target: string, request: FastifyRequest, reply: FastifyReply) {
    const { error, latencyMs } = faults.decide(target);
    if (latencyMs > 0) await wait(latencyMs, undefined, { ref: false });
    if (error === null) return false;
    if (error === 'lose-answer') {
      // Carried out as if no rule applied; only the answer is lost on its way back.
      answersToLose.add(reply);
      return false;
    }
    if (isRefusal(error)) {
      void fail(reply, REFUSALS[error]);
    } else if (error === 'gateway') {
      void reply.code(502).type('text/html').send(GATEWAY_PAGE);
    } else {
      // `drop`: the connection closes with no answer at all, as a network fault does.
      reply.hijack();
      reply.raw.destroy();
      onDropped?.(request, reply);
    }
    return true;
  }

  function authorizedBody(request: FastifyRequest, reply: FastifyReply): Fields | undefined {
    if (request.method !== 'POST') {
      void fail(reply, methodNotAllowed(request.method));
      return undefined;
    }
    const header = request.headers.authorization;
    if (header !== undefined && !/^Bearer\s/i.test(header)) {
      void fail(reply, ERRORS.invalidAuthHeader);
      return undefined;
    }
    const token = header?.replace(/^Bearer\s+/i, '').trim() ?? '';
    if (!tokens.isValid(token)) {
      void fail(reply, ERRORS.invalidToken);
      return undefined;
    }
    let body: unknown;
    try {
      body = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      body = undefined;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      void fail(reply, ERRORS.invalidPayload);
      return undefined;
    }
    return body as Fields;
  }

  return { faulted, authorizedBody };
}
