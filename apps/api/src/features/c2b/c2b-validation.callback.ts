/**
 * M-PESA's C2B validation request (docs/daraja-protocol.md §M3.4): asked before a till or paybill
 * payment is taken, when Safaricom has turned external validation on for the shortcode. The body
 * is always kept; the verdict is decided by features/c2b/validation-decision.ts. M-PESA waits "usually < 8
 * seconds" for it, so the database work is bounded: what the request alone decides (the amount,
 * the shortcode) stands whatever the database does, and when the `invoice` rule cannot be answered
 * in time (or the database is unavailable), the answer is what the registered ResponseType would
 * make M-PESA do anyway.
 */
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import { readC2bBody, type C2bBodyReading } from './c2b-body.ts';
import { hasOpenInvoice } from './c2b.repository.ts';
import { C2B_ANSWERS, C2B_DESCRIBED } from './c2b.openapi.ts';
import type { C2bPayment } from './c2b-body.ts';
import type { CallbackOutcome } from '../../db/schema.ts';
import {
  ACCEPTED,
  decideValidation,
  decideWithoutDatabase,
  undecided,
  type C2bSettings,
  type ValidationAnswer,
} from './validation-decision.ts';
import { CALLBACK_BODY } from '../payments/index.ts';
import type { CallbackHandler } from '../../callbacks/callback.routes.ts';
import type { C2bCallbackDeps } from './c2b-confirmation.callback.ts';
import { keepCallback, settleKeptCallback } from '../../callbacks/kept-callback.ts';

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

/**
 * The verdict on a readable request of `invoice` validation whose shortcode and amount pass: the
 * body kept, the account number looked up among the open invoices, the body's outcome settled.
 */
async function decideByInvoice(
  deps: C2bCallbackDeps & { settings: C2bSettings },
  payment: C2bPayment,
  received: { raw: string; ip: string },
): Promise<ValidationAnswer> {
  const { db, now, settings } = deps;
  const at = now();
  const kept = await keepCallback(db, {
    kind: 'c2b-validation',
    ...received,
    at: at.toISOString(),
  });
  const since = new Date(at.getTime() - OPEN_INVOICE_DAYS * 86_400_000).toISOString();
  const open = await hasOpenInvoice(db, payment.reference, since);
  const verdict = decideValidation(settings, payment, open);
  await settleKeptCallback(db, kept, verdict.ResultCode === '0' ? 'accepted' : 'refused');
  return verdict;
}

/**
 * What the request alone decides, with the outcome its kept body is marked with; or, when only the
 * `invoice` rule remains (it asks the database), the settings and the payment to ask about.
 */
type Reckoning =
  | {
      kind: 'known';
      verdict: ValidationAnswer;
      outcome: Extract<CallbackOutcome, 'accepted' | 'refused' | 'invalid'>;
    }
  | { kind: 'invoice'; settings: C2bSettings; payment: C2bPayment };

function reckon(settings: C2bSettings | undefined, reading: C2bBodyReading): Reckoning {
  // Nothing to decide: every payment is taken.
  if (settings === undefined || settings.validation === 'off') {
    return { kind: 'known', verdict: ACCEPTED, outcome: 'accepted' };
  }
  if (!reading.ok) return { kind: 'known', verdict: undecided(settings), outcome: 'invalid' };
  const verdict = decideWithoutDatabase(settings, reading.payment);
  if (verdict === null) return { kind: 'invoice', settings, payment: reading.payment };
  return { kind: 'known', verdict, outcome: verdict.ResultCode === '0' ? 'accepted' : 'refused' };
}

/**
 * The verdict on a request, and the body kept. Whatever the request alone decides (validation
 * off, an unreadable body, the shortcode, the amount) is decided before any database work, and the
 * body is then kept within the budget, the verdict standing whatever the database does; only the
 * `invoice` rule waits for the database, and when it cannot answer in time the registered
 * ResponseType's verdict is given.
 */
async function verdictOn(
  deps: C2bCallbackDeps,
  received: { raw: string; ip: string },
  log: FastifyBaseLogger,
): Promise<ValidationAnswer> {
  const reckoning = reckon(deps.settings, readC2bBody(received.raw));
  if (reckoning.kind === 'known') {
    const at = deps.now().toISOString();
    const { outcome } = reckoning;
    const keeping = keepCallback(deps.db, { kind: 'c2b-validation', ...received, at, outcome });
    await within(VALIDATION_BUDGET_MS, keeping, log).catch((error: unknown) =>
      log.warn({ err: error }, 'c2b validation request not kept; answered all the same'),
    );
    return reckoning.verdict;
  }
  const { settings, payment } = reckoning;
  try {
    const work = decideByInvoice({ ...deps, settings }, payment, received);
    return await within(VALIDATION_BUDGET_MS, work, log);
  } catch (error) {
    const verdict = undecided(settings);
    log.warn(
      { err: error instanceof OutOfTime ? undefined : error, answered: verdict.ResultCode },
      `c2b validation could not be decided ${error instanceof OutOfTime ? `within ${VALIDATION_BUDGET_MS} ms` : '(the database failed)'}: answered as MPESA_C2B_RESPONSE_TYPE ${settings.responseType} would have M-PESA do`,
    );
    return verdict;
  }
}

export function c2bValidationCallback(deps: C2bCallbackDeps): CallbackHandler {
  return {
    schema: {
      ...C2B_DESCRIBED.validation,
      body: z.unknown().meta(CALLBACK_BODY),
      response: C2B_ANSWERS.validation,
    },
    async handle({ raw, ip, log }, reply) {
      const verdict = await verdictOn(deps, { raw, ip }, log);
      if (verdict.ResultCode !== '0') {
        log.info({ resultCode: verdict.ResultCode }, 'c2b payment refused by validation');
      }
      return reply.code(200).send(verdict);
    },
  };
}
