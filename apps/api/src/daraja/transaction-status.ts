/**
 * Transaction status: asks Daraja what became of a transaction (docs/daraja-protocol.md §M5), by
 * its receipt or by the OriginatorConversationID of the request that made it (the key is
 * `OriginalConversationID`). It is how a Result that never came is recovered: Daraja acknowledges
 * at once and posts the answer, a Result, to ResultURL (result-parser.ts reads it).
 */
import { DarajaError } from './daraja-error.ts';
import { resultAckSchema, type InitiatorSettings, type ResultAck } from './reversal.ts';
import type { DarajaTransport } from './transport.ts';

export type StatusQuery = (
  | { transactionId: string; originalConversationId?: undefined }
  | { originalConversationId: string; transactionId?: undefined }
) & {
  resultUrl: string;
  queueTimeoutUrl: string;
  /** 2 to 100 characters. */
  remarks: string;
};

export const TRANSACTION_STATUS_PATH = '/mpesa/transactionstatus/v1/query';

export async function transactionStatus(
  transport: DarajaTransport,
  settings: InitiatorSettings,
  query: StatusQuery,
): Promise<ResultAck> {
  const answer = await transport.postJson(TRANSACTION_STATUS_PATH, {
    Initiator: settings.initiatorName,
    SecurityCredential: settings.securityCredential,
    CommandID: 'TransactionStatusQuery',
    ...(query.transactionId === undefined
      ? { OriginalConversationID: query.originalConversationId }
      : { TransactionID: query.transactionId }),
    PartyA: settings.shortcode,
    IdentifierType: '4',
    ResultURL: query.resultUrl,
    QueueTimeOutURL: query.queueTimeoutUrl,
    Remarks: query.remarks,
    Occasion: 'status',
  });
  const ack = resultAckSchema.safeParse(answer.body);
  if (answer.status !== 200 || !ack.success || ack.data.ResponseCode !== '0') {
    throw new DarajaError(
      ack.success ? 'rejected' : 'unknown',
      `Daraja transaction status gave HTTP ${answer.status} without an acknowledgement`,
      { httpStatus: answer.status },
    );
  }
  return {
    originatorConversationId: ack.data.OriginatorConversationID,
    conversationId: ack.data.ConversationID,
  };
}
