/**
 * Dynamic QR as the simulator's description shows it (docs/daraja-protocol.md §M8.2). For the
 * description only (daraja/docs.ts says why).
 */
import { z } from 'zod';
import { invalidField } from '../../catalogue.ts';
import type { SimulatorConfig } from '../../config.ts';
import {
  CALL_REFUSALS,
  DARAJA_TAGS,
  METHOD_NOT_ALLOWED,
  SAMPLE,
  bearer,
  numeric,
  refusals,
} from '../../daraja/docs.ts';
import type { RouteDocs } from '../../route-docs.ts';
import { QR_GENERATED, QR_PATH } from './qr.routes.ts';
import { MAX_SIZE, MAX_TEXT, TRX_CODES } from './validation.ts';

const body = z
  .object({
    MerchantName: z
      .string()
      .describe(`The name shown to the payer; at most ${MAX_TEXT} characters`),
    RefNo: z.string().describe(`The payment's reference; at most ${MAX_TEXT} characters`),
    Amount: numeric('Whole shillings, 1 to 250,000'),
    TrxCode: z
      .enum(TRX_CODES)
      .describe(
        'BG buy goods, WA withdraw at an agent, PB paybill, SM send money, SB send to a business',
      ),
    CPI: numeric(
      'Who is paid: a till (BG, WA) or paybill (PB) of 5 to 7 digits, or 2547XXXXXXXX (SM, SB)',
    ),
    Size: numeric(`The PNG's side in pixels, up to ${MAX_SIZE}, and enough for the code`),
  })
  .meta({
    'x-examples': {
      tillPayment: {
        summary: 'A code to pay 1 KES to till 373132',
        value: {
          MerchantName: 'TEST SUPERMARKET',
          RefNo: 'Invoice Test',
          Amount: 1,
          TrxCode: 'BG',
          CPI: '373132',
          Size: '300',
        },
      },
    },
  });

function generated(config: SimulatorConfig) {
  const code = config.qrResponseCode === '00' ? '00' : 'AG_20260314_20106e9209f64bebd05b';
  return z
    .object({
      ResponseCode: z.string().describe('"00", or an AG_… id with SIM_QR_RESPONSE_CODE'),
      RequestID: z.string(),
      ResponseDescription: z.literal(QR_GENERATED),
      QRCode: z.string().describe('A PNG, base64: a QR code of the request, as JSON'),
    })
    .meta({
      description: 'The QR code, made at once (no callback follows).',
      'x-examples': {
        generated: {
          summary: 'Generated',
          value: {
            ResponseCode: code,
            RequestID: SAMPLE.requestId,
            ResponseDescription: QR_GENERATED,
            QRCode: 'iVBORw0KGgoAAAANSUhEUgAAASwAAAEsCAAAAACRj…',
          },
        },
      },
    });
}

export function qrDocs(config: SimulatorConfig): Record<string, RouteDocs> {
  return {
    [`POST ${QR_PATH}`]: {
      summary: 'Generate a Dynamic QR code a customer scans to pay',
      description:
        'Synchronous: the answer holds the code as a base64 PNG exactly `Size` pixels square. ' +
        'The code holds the request as JSON (what a real M-PESA code holds is not published). ' +
        'Each field is checked and the first one wrong is named.\n\n' +
        METHOD_NOT_ALLOWED('POST'),
      tags: DARAJA_TAGS,
      headers: bearer,
      body,
      response: {
        200: generated(config),
        ...refusals({
          invalidField: {
            summary: 'A field missing or not valid (a TrxCode not in the list, a Size too small)',
            failure: invalidField('TrxCode'),
          },
          invalidPayload: CALL_REFUSALS.invalidPayload,
          invalidToken: CALL_REFUSALS.invalidToken,
          invalidAuthHeader: CALL_REFUSALS.invalidAuthHeader,
        }),
      },
    },
  };
}
