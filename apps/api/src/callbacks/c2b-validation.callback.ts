/**
 * M-PESA's C2B validation request (docs/daraja-protocol.md §M3.4): asked before a till or paybill
 * payment is taken, when Safaricom has turned external validation on for the shortcode. The body
 * is kept first; the verdict is decided by c2b/validation-decision.ts. M-PESA waits "usually < 8
 * seconds" for it, so the database work is bounded: when it cannot finish in time (or the database
 * is unavailable), the answer is what the registered ResponseType would make M-PESA do anyway.
 */
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import { readC2bBody } from '../c2b/c2b-body.ts';
import { hasOpenInvoice } from '../c2b/c2b.repository.ts';
import { C2B_ANSWERS, C2B_DESCRIBED } from '../c2b/c2b.answers.ts';
import {
  ACCEPTED,
  decideValidation,
  needsInvoiceCheck,
  undecided,
  type C2bSettings,
  type ValidationAnswer,
} from '../c2b/validation-decision.ts';
import { CALLBACK_BODY } from '../transactions/transactions.answers.ts';
import type { CallbackHandler } from './callback.routes.ts';
import type { C2bCallbackDeps } from './c2b-confirmation.callback.ts';
import { keepCallback, settleKeptCallback } from './kept-callback.ts';

/** The longest the database work may take: well within M-PESA's ~8 s (§M3.4). */
export const VALIDATION_BUDGET_MS = 4000;
/** How far back a payment request is an open invoice (docs/product.md §11). */
export const OPEN_INVOICE_DAYS = 30;

class OutOfTime extends Error {}

/** `work`, or OutOfTime once `ms` have passed (the work itself carries on, and is logged if it fails). */
function within<T>(ms: number, work: Promise<T>, log: FastifyBaseLogger): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new OutOfTime()), ms);
  });
  work.catch((error: unknown) => log.debug({ err: error }, 'c2b validation work ended late'));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function decide(
  deps: C2bCallbackDeps & { settings: C2bSettings },
  raw: string,
  ip: string,
): Promise<ValidationAnswer> {
  const { db, now, settings } = deps;
  const at = now();
  const kept = await keepCallback(db, { kind: 'c2b-validation', raw, ip, at: at.toISOString() });
  const reading = readC2bBody(raw);
  if (!reading.ok) {
    await settleKeptCallback(db, kept, 'invalid');
    return undecided(settings);
  }
  const { payment } = reading;
  const since = new Date(at.getTime() - OPEN_INVOICE_DAYS * 86_400_000).toISOString();
  const open = needsInvoiceCheck(settings, payment)
    ? await hasOpenInvoice(db, payment.reference, since)
    : undefined;
  const verdict = decideValidation(settings, payment, open);
  await settleKeptCallback(db, kept, verdict.ResultCode === '0' ? 'accepted' : 'refused');
  return verdict;
}

export function c2bValidationCallback(deps: C2bCallbackDeps): CallbackHandler {
  return {
    schema: {
      ...C2B_DESCRIBED.validation,
      body: z.unknown().meta(CALLBACK_BODY),
      response: C2B_ANSWERS.validation,
    },
    async handle({ raw, ip, log }, reply) {
      const { settings } = deps;
      // Nothing to decide: every payment is taken. The body is kept all the same.
      if (settings === undefined || settings.validation === 'off') {
        const at = deps.now().toISOString();
        const keeping = keepCallback(deps.db, {
          kind: 'c2b-validation',
          raw,
          ip,
          at,
          outcome: 'accepted',
        });
        // Answered in time whatever the database does: the verdict does not depend on it.
        await within(VALIDATION_BUDGET_MS, keeping, log).catch((error: unknown) =>
          log.warn({ err: error }, 'c2b validation request not kept; accepted all the same'),
        );
        return reply.code(200).send(ACCEPTED);
      }
      let verdict: ValidationAnswer;
      try {
        verdict = await within(VALIDATION_BUDGET_MS, decide({ ...deps, settings }, raw, ip), log);
      } catch (error) {
        verdict = undecided(settings);
        log.warn(
          { err: error instanceof OutOfTime ? undefined : error, answered: verdict.ResultCode },
          `c2b validation could not be decided ${error instanceof OutOfTime ? `within ${VALIDATION_BUDGET_MS} ms` : '(the database failed)'}: answered as MPESA_C2B_RESPONSE_TYPE ${settings.responseType} would have M-PESA do`,
        );
      }
      if (verdict.ResultCode !== '0') {
        log.info({ resultCode: verdict.ResultCode }, 'c2b payment refused by validation');
      }
      return reply.code(200).send(verdict);
    },
  };
}
