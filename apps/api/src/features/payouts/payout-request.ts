/**
 * Sending a payout to Daraja (docs/daraja-protocol.md §M4, §M8.1): B2C to a phone, with our own
 * OriginatorConversationID (v3: kept before sending, and refused by Daraja if it is used again, so
 * that the same payout sent again can never pay twice); B2B to a paybill or a till, whose
 * OriginatorConversationID the gateway makes. Both are made as the initiator
 * (`money.asInitiator`), through the transport (token, timeout, Daraja's error envelope), and read
 * the acknowledgement every Result API gives (`resultAckSchema`).
 */
import { isPhonePayout } from '@mpesa/shared/contract-payouts';
import type { DarajaMoneyClient, ResultAck } from '../../daraja/daraja-client.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import { resultAckSchema } from '../../daraja/reversal.ts';
import type { PayoutRow } from '../../db/schema.ts';

export const B2C_PATH = '/mpesa/b2c/v3/paymentrequest';
export const B2B_PATH = '/mpesa/b2b/v1/paymentrequest';

/**
 * Gateway refusals that say the request never reached M-PESA (Apigee's spike arrest and quota,
 * §M1.2): nothing was sent. Any other 5xx (`500.002.1001` is both "Duplicate
 * OriginatorConversationID." and "System internal error.") may have been taken.
 */
const NEVER_SENT = new Set(['500.003.02', '500.003.03']);

export interface PayoutAddresses {
  resultUrl: string;
  queueTimeoutUrl: string;
}

/** Daraja's Remarks: the reason, 2 to 100 characters (checked when proposed). */
const remarks = (reason: string) => Array.from(reason).slice(0, 100).join('');

function body(
  payout: PayoutRow,
  shortcode: string,
  money: DarajaMoneyClient,
  urls: PayoutAddresses,
) {
  const initiator = money.asInitiator(shortcode);
  if (isPhonePayout(payout.kind)) {
    return {
      OriginatorConversationID: payout.originator_conversation_id,
      InitiatorName: initiator.initiatorName,
      SecurityCredential: initiator.securityCredential,
      CommandID: payout.kind,
      Amount: payout.amount,
      PartyA: shortcode,
      PartyB: payout.payee,
      Remarks: remarks(payout.reason),
      QueueTimeOutURL: urls.queueTimeoutUrl,
      ResultURL: urls.resultUrl,
      Occassion: 'Payout',
    };
  }
  return {
    Initiator: initiator.initiatorName,
    SecurityCredential: initiator.securityCredential,
    CommandID: payout.kind,
    SenderIdentifierType: '4',
    // Daraja's own spelling (§M8.1): the correct one is ignored and the request refused.
    RecieverIdentifierType: '4',
    Amount: payout.amount,
    PartyA: shortcode,
    PartyB: payout.payee,
    ...(payout.account === null ? {} : { AccountReference: payout.account }),
    Remarks: remarks(payout.reason),
    QueueTimeOutURL: urls.queueTimeoutUrl,
    ResultURL: urls.resultUrl,
  };
}

/**
 * Sends the payout; its acknowledgement, or a DarajaError saying whether it could have reached
 * M-PESA (`rejected` only when it certainly did not pay).
 */
export async function sendPayout(
  money: DarajaMoneyClient,
  payout: PayoutRow,
  shortcode: string,
  urls: PayoutAddresses,
): Promise<ResultAck> {
  const path = isPhonePayout(payout.kind) ? B2C_PATH : B2B_PATH;
  let answer;
  try {
    answer = await money.transport.postJson(path, body(payout, shortcode, money, urls));
  } catch (error) {
    if (
      error instanceof DarajaError &&
      error.kind === 'rejected' &&
      (error.httpStatus ?? 0) >= 500 &&
      !NEVER_SENT.has(error.errorCode ?? '')
    ) {
      throw new DarajaError('unknown', error.message, {
        ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
        ...(error.errorCode === undefined ? {} : { errorCode: error.errorCode }),
        ...(error.errorMessage === undefined ? {} : { errorMessage: error.errorMessage }),
        cause: error,
      });
    }
    throw error;
  }
  const ack = resultAckSchema.safeParse(answer.body);
  if (answer.status !== 200 || !ack.success) {
    throw new DarajaError(
      'unknown',
      `Daraja payout gave HTTP ${answer.status} without an acknowledgement`,
      {
        httpStatus: answer.status,
      },
    );
  }
  if (ack.data.ResponseCode !== '0') {
    throw new DarajaError('rejected', `Daraja payout refused: ${ack.data.ResponseDescription}`, {
      httpStatus: answer.status,
      errorCode: ack.data.ResponseCode,
      errorMessage: ack.data.ResponseDescription,
    });
  }
  return {
    originatorConversationId: ack.data.OriginatorConversationID,
    conversationId: ack.data.ConversationID,
  };
}
