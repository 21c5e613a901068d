/**
 * Reversal: asks Daraja to move a customer's payment back from the shortcode (docs/daraja-protocol.md
 * §M7), which is how a refund is made. Daraja acknowledges at once; whether the money moved comes
 * later, as a Result posted to ResultURL (§M1.3), or from a transaction-status query when that Result
 * does not come. A wrong initiator password is not refused here: it is acknowledged, and its Result
 * carries 2001 (§M2.3).
 */
import { z } from 'zod';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { DarajaError } from './daraja-error.ts';
import { darajaText, storable, type DarajaTransport } from './transport.ts';

/** Who asks: the API operator (initiator) of the shortcode the payment was made to. */
export interface InitiatorSettings {
  shortcode: string;
  initiatorName: string;
  /** The initiator's password, encrypted for this Daraja (security-credential.ts). */
  securityCredential: string;
}

export interface ReversalRequest {
  /** The receipt of the payment to move back (its M-PESA TransactionID). */
  transactionId: string;
  /** Whole shillings: the payment's amount. */
  amount: number;
  resultUrl: string;
  queueTimeoutUrl: string;
  /** 2 to 100 characters: why (Daraja's `Remarks`). */
  remarks: string;
}

/** Daraja's acknowledgement: the ids its Result will carry. */
export interface ResultAck {
  originatorConversationId: string;
  conversationId: string;
}

export const REVERSAL_PATH = '/mpesa/reversal/v1/request';

/** The acknowledgement every Result API gives (§M1.1). */
export const resultAckSchema = z.looseObject({
  OriginatorConversationID: storable(MAX_LENGTH.darajaId).pipe(z.string().min(1)),
  ConversationID: storable(MAX_LENGTH.darajaId).pipe(z.string().min(1)),
  ResponseCode: storable(MAX_LENGTH.resultCode),
  ResponseDescription: darajaText.default(''),
});

export async function reversal(
  transport: DarajaTransport,
  settings: InitiatorSettings,
  request: ReversalRequest,
): Promise<ResultAck> {
  const answer = await transport.postJson(REVERSAL_PATH, {
    Initiator: settings.initiatorName,
    SecurityCredential: settings.securityCredential,
    CommandID: 'TransactionReversal',
    TransactionID: request.transactionId,
    Amount: request.amount,
    ReceiverParty: settings.shortcode,
    // Daraja's own spelling: the correct one is ignored, and the request refused (§M7).
    RecieverIdentifierType: '11',
    ResultURL: request.resultUrl,
    QueueTimeOutURL: request.queueTimeoutUrl,
    Remarks: request.remarks,
  });
  const ack = resultAckSchema.safeParse(answer.body);
  if (answer.status !== 200 || !ack.success) {
    // It reached Daraja, and may have been taken: only a transaction-status query can tell.
    throw new DarajaError(
      'unknown',
      `Daraja reversal gave HTTP ${answer.status} without an acknowledgement`,
      { httpStatus: answer.status },
    );
  }
  if (ack.data.ResponseCode !== '0') {
    throw new DarajaError('rejected', `Daraja reversal refused: ${ack.data.ResponseDescription}`, {
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
