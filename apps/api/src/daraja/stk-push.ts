/**
 * M-PESA Express (STK push): asks Daraja to prompt the payer's phone (docs/daraja-protocol.md §3).
 * Its result comes later, as a callback (callback-parser.ts), or from an STK query (stk-query.ts).
 */
import { z } from 'zod';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { DarajaError } from './daraja-error.ts';
import { stkCredentials, type StkShortcode } from './password.ts';
import { darajaText, storable, type DarajaTransport } from './transport.ts';

export interface StkPushSettings extends StkShortcode {
  transactionType: 'CustomerPayBillOnline' | 'CustomerBuyGoodsOnline';
  partyB: string;
}

export interface StkPushRequest {
  /** 2547XXXXXXXX or 2541XXXXXXXX. */
  phoneNumber: string;
  amount: number;
  /** Max 12 characters, shown on the payer's prompt. */
  accountReference: string;
  /** Max 13 characters. */
  transactionDesc: string;
  callbackUrl: string;
}

export interface StkPushAck {
  merchantRequestId: string;
  checkoutRequestId: string;
  responseCode: string;
  responseDescription: string;
  customerMessage: string;
}

export const STK_PUSH_PATH = '/mpesa/stkpush/v1/processrequest';

const ackSchema = z.looseObject({
  MerchantRequestID: storable(MAX_LENGTH.darajaId),
  CheckoutRequestID: storable(MAX_LENGTH.darajaId).pipe(z.string().min(1)),
  ResponseCode: storable(MAX_LENGTH.resultCode),
  ResponseDescription: darajaText.default(''),
  CustomerMessage: darajaText.default(''),
});

export async function stkPush(
  transport: DarajaTransport,
  settings: StkPushSettings,
  request: StkPushRequest,
): Promise<StkPushAck> {
  const answer = await transport.postJson(STK_PUSH_PATH, {
    ...stkCredentials(settings, transport.now()),
    TransactionType: settings.transactionType,
    Amount: request.amount,
    PartyA: request.phoneNumber,
    PartyB: settings.partyB,
    PhoneNumber: request.phoneNumber,
    CallBackURL: request.callbackUrl,
    AccountReference: request.accountReference,
    TransactionDesc: request.transactionDesc,
  });
  const ack = ackSchema.safeParse(answer.body);
  if (answer.status !== 200 || !ack.success) {
    // The request reached Daraja but the answer is not one we understand: the payer may still
    // get a prompt, so the outcome is unknown, not failed.
    throw new DarajaError(
      'unknown',
      `Daraja STK push gave HTTP ${answer.status} without an acknowledgement`,
      { httpStatus: answer.status },
    );
  }
  if (ack.data.ResponseCode !== '0') {
    throw new DarajaError('rejected', `Daraja STK push refused: ${ack.data.ResponseDescription}`, {
      httpStatus: answer.status,
      errorCode: ack.data.ResponseCode,
      errorMessage: ack.data.ResponseDescription,
    });
  }
  return {
    merchantRequestId: ack.data.MerchantRequestID,
    checkoutRequestId: ack.data.CheckoutRequestID,
    responseCode: ack.data.ResponseCode,
    responseDescription: ack.data.ResponseDescription,
    customerMessage: ack.data.CustomerMessage,
  };
}
