/**
 * The transaction status Result about a receipt the merchant typed (docs/daraja-protocol.md §M5):
 * kept first, matched to its check by the query's OriginatorConversationID, read by
 * features/c2b/receipt-result.ts; a completed payment to our shortcode is recorded as its confirmation would
 * have been (features/c2b/c2b-payments.service.ts), so a confirmation that arrives too is a duplicate.
 */
import { z } from 'zod';
import { recordC2bPayment } from './c2b-payments.service.ts';
import { C2B_DESCRIBED } from './c2b.openapi.ts';
import { findReceiptCheckByQuery, settleReceiptCheck } from './c2b.repository.ts';
import { readReceiptResult } from './receipt-result.ts';
import { parseResult } from '../../daraja/result-parser.ts';
import { CALLBACK_BODY } from '../payments/index.ts';
import { CALLBACK_ANSWERS } from '../../callbacks/callbacks.openapi.ts';
import type { CallbackHandler } from '../../callbacks/callback.routes.ts';
import type { C2bCallbackDeps } from './c2b-confirmation.callback.ts';
import { RESULT_TAKEN, keepCallback, settleKeptCallback } from '../../callbacks/kept-callback.ts';
import { lookUpOvertaken } from '../../callbacks/overtaken-lookup.ts';

function parsedBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export function receiptStatusCallback(deps: C2bCallbackDeps): CallbackHandler {
  const { db, now } = deps;
  return {
    schema: {
      ...C2B_DESCRIBED.receiptStatus,
      body: z.unknown().meta(CALLBACK_BODY),
      response: CALLBACK_ANSWERS,
    },
    async handle({ raw, ip, log }, reply) {
      const at = now().toISOString();
      const kept = await keepCallback(db, { kind: 'receipt-status', raw, ip, at });
      const parsed = parseResult(parsedBody(raw));
      if (!parsed.ok) {
        await settleKeptCallback(db, kept, 'invalid');
        log.warn({ callbackId: kept, problem: parsed.problem }, 'receipt status Result unreadable');
        return reply.code(200).send(RESULT_TAKEN);
      }
      // The check's query id may not be saved yet: its Result can overtake it (overtaken-lookup.ts).
      const { originatorConversationId } = parsed.result;
      const check = await lookUpOvertaken(() =>
        findReceiptCheckByQuery(db, originatorConversationId),
      );
      if (!check || check.status !== 'asked' || !deps.settings) {
        await settleKeptCallback(db, kept, check ? 'duplicate' : 'orphan');
        return reply.code(200).send(RESULT_TAKEN);
      }
      const reading = readReceiptResult(parsed.result, {
        receipt: check.receipt,
        shortcode: deps.settings.shortcode,
      });
      let transactionId: string | null = null;
      let outcome: 'applied' | 'duplicate' | 'ignored' = 'ignored';
      if (reading.kind === 'found') {
        const recorded = await recordC2bPayment(db, reading.payment, {
          kind: 'c2b_found',
          at,
        });
        transactionId = recorded.transactionId;
        outcome = recorded.recorded ? 'applied' : 'duplicate';
      }
      await settleReceiptCheck(db, check.id, {
        status: reading.kind,
        transaction_id: transactionId,
        result_code: reading.kind === 'found' ? null : reading.resultCode,
        updated_at: at,
      });
      await settleKeptCallback(db, kept, outcome, transactionId);
      log.info({ receiptCheckId: check.id, found: reading.kind, transactionId }, 'receipt checked');
      return reply.code(200).send(RESULT_TAKEN);
    },
  };
}
