/**
 * M-PESA's C2B confirmation (docs/daraja-protocol.md §M3.3): a customer paid the till or paybill
 * from the phone's menu. The body is kept first, whatever it holds; a payment to our shortcode is
 * recorded once per receipt (features/c2b/c2b-payments.service.ts); Daraja is answered as §M3.5 says.
 */
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { readC2bBody } from './c2b-body.ts';
import { recordC2bPayment } from './c2b-payments.service.ts';
import {
  C2B_ANSWERS,
  C2B_DESCRIBED,
  CONFIRMATION_REJECTED,
  CONFIRMATION_TAKEN,
} from './c2b.openapi.ts';
import type { C2bSettings } from './validation-decision.ts';
import { CALLBACK_BODY } from '../payments/index.ts';
import type { CallbackHandler } from '../../callbacks/callback.routes.ts';
import { keepCallback, settleKeptCallback } from '../../callbacks/kept-callback.ts';

export interface C2bCallbackDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Undefined: no shortcode's payments are taken (every confirmation is kept and ignored). */
  settings: C2bSettings | undefined;
}

export function c2bConfirmationCallback({ db, now, settings }: C2bCallbackDeps): CallbackHandler {
  return {
    schema: {
      ...C2B_DESCRIBED.confirmation,
      body: z.unknown().meta(CALLBACK_BODY),
      response: C2B_ANSWERS.confirmation,
    },
    async handle({ raw, ip, log }, reply) {
      const at = now().toISOString();
      const kept = await keepCallback(db, { kind: 'c2b-confirmation', raw, ip, at });
      const reading = readC2bBody(raw);
      if (!reading.ok) {
        await settleKeptCallback(db, kept, 'invalid');
        log.warn({ callbackId: kept, problem: reading.problem }, 'c2b confirmation unreadable');
        return reply.code(400).send(CONFIRMATION_REJECTED);
      }
      const { payment } = reading;
      if (settings === undefined || payment.shortcode !== settings.shortcode) {
        await settleKeptCallback(db, kept, 'ignored');
        log.warn(
          { callbackId: kept, shortcode: payment.shortcode },
          'c2b confirmation for a shortcode this server does not take: kept, nothing recorded',
        );
        return reply.code(200).send(CONFIRMATION_TAKEN);
      }
      const { transactionId, recorded } = await recordC2bPayment(db, payment, {
        kind: 'c2b_confirmed',
        at,
      });
      await settleKeptCallback(db, kept, recorded ? 'applied' : 'duplicate', transactionId);
      log.info(
        { transactionId, receipt: payment.receipt, channel: payment.channel, recorded },
        recorded ? 'c2b payment recorded' : 'c2b confirmation for a receipt already recorded',
      );
      return reply.code(200).send(CONFIRMATION_TAKEN);
    },
  };
}
