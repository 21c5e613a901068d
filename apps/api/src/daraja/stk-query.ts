/**
 * The STK push query: asks Daraja how a push ended, for a payment whose callback has not come
 * (docs/daraja-protocol.md §5). Before the payer has answered, Daraja says it is still processing.
 */
import { z } from 'zod';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { DarajaError } from './daraja-error.ts';
import { stkCredentials, type StkShortcode } from './password.ts';
import { darajaText, storable, type DarajaTransport, type JsonAnswer } from './transport.ts';

export type StkQueryResult =
  | { state: 'pending'; message: string }
  | { state: 'final'; resultCode: string; resultDesc: string; raw: unknown };

export const STK_QUERY_PATH = '/mpesa/stkpushquery/v1/query';

/** "The transaction is being processed": an STK query before the payer has answered. */
const STILL_PROCESSING = '500.001.1001';

const queryAnswerSchema = z.looseObject({
  ResultCode: storable(MAX_LENGTH.resultCode).pipe(z.string().min(1)),
  ResultDesc: darajaText.default(''),
});

export async function stkQuery(
  transport: DarajaTransport,
  settings: StkShortcode,
  checkoutRequestId: string,
): Promise<StkQueryResult> {
  let answer: JsonAnswer;
  try {
    answer = await transport.postJson(STK_QUERY_PATH, {
      ...stkCredentials(settings, transport.now()),
      CheckoutRequestID: checkoutRequestId,
    });
  } catch (error) {
    if (
      error instanceof DarajaError &&
      error.errorCode === STILL_PROCESSING &&
      /being processed/i.test(error.errorMessage ?? '')
    ) {
      return { state: 'pending', message: error.errorMessage ?? '' };
    }
    throw error;
  }
  const result = queryAnswerSchema.safeParse(answer.body);
  if (answer.status !== 200 || !result.success) {
    throw new DarajaError(
      'unknown',
      `Daraja STK query gave HTTP ${answer.status} without a result`,
      {
        httpStatus: answer.status,
      },
    );
  }
  return {
    state: 'final',
    resultCode: result.data.ResultCode,
    resultDesc: result.data.ResultDesc,
    raw: answer.body,
  };
}
