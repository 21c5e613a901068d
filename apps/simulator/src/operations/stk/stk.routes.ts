/**
 * M-PESA Express's two calls: STK push, which puts a prompt on the payer's phone, and STK query,
 * which tells how one ended (docs/daraja-protocol.md §3, §5). The gate (daraja/gate.ts) has drawn
 * the fault rules and checked the method, the token and the JSON body first.
 */
import type { FastifyInstance } from 'fastify';
import {
  ERRORS,
  PUSH_ACCEPTED,
  QUERY_ACCEPTED,
  REFUSALS,
  invalidField,
  type Failure,
} from '../../catalogue.ts';
import type { SimulatorConfig } from '../../config.ts';
import { fail } from '../../daraja/envelope.ts';
import type { DarajaGate } from '../../daraja/gate.ts';
import { stkPassword } from './password.ts';
import type { PromptBook } from './prompt-book.ts';
import { checkPush, checkQuery, timestampSkewHours } from './validation.ts';

/** The names fault rules give STK's requests. */
export const STK_TARGETS = { push: 'stkpush', query: 'query' } as const;

/** Shortcode known and Password = base64(shortcode + passkey + timestamp). */
function credentialFailure(
  config: SimulatorConfig,
  {
    businessShortCode,
    password,
    timestamp,
  }: Record<'businessShortCode' | 'password' | 'timestamp', string>,
): Failure | undefined {
  if (config.maxTimestampSkewH > 0 && timestampSkewHours(timestamp) > config.maxTimestampSkewH) {
    return invalidField('Timestamp');
  }
  if (businessShortCode !== config.shortcode) return ERRORS.merchantMissing;
  if (password !== stkPassword(businessShortCode, config.passkey, timestamp))
    return ERRORS.wrongCredentials;
  return undefined;
}

export function stkRoutes(
  app: FastifyInstance,
  gate: DarajaGate,
  { config, prompts }: { config: SimulatorConfig; prompts: PromptBook },
) {
  app.all('/mpesa/stkpush/v1/processrequest', async (request, reply) => {
    if (await gate.faulted(STK_TARGETS.push, request, reply)) return reply;
    const body = gate.authorizedBody(request, reply);
    if (!body) return reply;
    const checked = checkPush(body, config.strictLengths);
    if (!checked.ok) return fail(reply, invalidField(checked.field));
    const { password: _password, timestamp: _timestamp, ...push } = checked.value;
    const refused = credentialFailure(config, checked.value);
    if (refused) return fail(reply, refused);
    if (prompts.openPromptFor(push.phoneNumber)) return fail(reply, ERRORS.subscriberLocked);
    const forced = prompts.peekForced(push.phoneNumber);
    if (forced?.kind === 'refuse') {
      prompts.clearNext(push.phoneNumber);
      return fail(reply, REFUSALS[forced.error]);
    }
    const prompt = prompts.create(push);
    return reply.send({
      MerchantRequestID: prompt.merchantRequestId,
      CheckoutRequestID: prompt.checkoutRequestId,
      ResponseCode: '0',
      ResponseDescription: PUSH_ACCEPTED,
      CustomerMessage: PUSH_ACCEPTED,
    });
  });

  app.all('/mpesa/stkpushquery/v1/query', async (request, reply) => {
    if (await gate.faulted(STK_TARGETS.query, request, reply)) return reply;
    const body = gate.authorizedBody(request, reply);
    if (!body) return reply;
    const checked = checkQuery(body);
    if (!checked.ok) return fail(reply, invalidField(checked.field));
    const query = checked.value;
    const refused = credentialFailure(config, query);
    if (refused) return fail(reply, refused);
    const prompt = prompts.get(query.checkoutRequestId);
    if (!prompt || prompt.businessShortCode !== query.businessShortCode) {
      return fail(reply, invalidField('CheckoutRequestID'));
    }
    if (prompt.state === 'open') {
      // Observed: the requestId of this answer is the CheckoutRequestID itself.
      return fail(reply, ERRORS.stillProcessing, prompt.checkoutRequestId);
    }
    return reply.send({
      ResponseCode: '0',
      ResponseDescription: QUERY_ACCEPTED,
      MerchantRequestID: prompt.merchantRequestId,
      CheckoutRequestID: prompt.checkoutRequestId,
      ResultCode: prompt.resultCode,
      ResultDesc: prompt.resultDesc,
    });
  });
}
