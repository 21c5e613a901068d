/**
 * What the asynchronous APIs (B2C, B2B, transaction status, account balance, reversal) answer
 * (docs/daraja-protocol.md §M1, §M1.6): the acknowledgement a request gets at once, and the Result
 * posted to its ResultURL later, in the shapes and types of captured traffic. The shapes that
 * sources disagree on are settings (config.ts, SIM_RESULT_*), all off by default.
 */
import type { SimulatorConfig } from '../config.ts';
import { eatNumber } from '../ids.ts';
import {
  conversationId,
  gatewayOriginatorConversationId,
  placeholderTransactionId,
} from './ids.ts';

/** The two ids a request, its acknowledgement and its Result share: a merchant matches on them. */
export interface Conversation {
  originatorConversationId: string;
  conversationId: string;
}

/**
 * A new request's ids: the OriginatorConversationID its client sent (B2C v3 sends one), else one
 * the gateway makes (§M1.1), and M-PESA's ConversationID, dated `at`.
 */
export function startConversation(at: Date, originatorConversationId?: string): Conversation {
  return {
    originatorConversationId: originatorConversationId ?? gatewayOriginatorConversationId(),
    conversationId: conversationId(at),
  };
}

/** The acknowledgement's text, with its full stop (one docs page drops it, §M1.1). */
export const ACCEPTED_DESCRIPTION = 'Accept the service request successfully.';

/** HTTP 200's body: accepted for processing, not done; the Result says how it ended (§M1.1). */
export interface Acknowledgement {
  OriginatorConversationID: string;
  ConversationID: string;
  /** A string, in every sample, unlike the Result's number. */
  ResponseCode: '0';
  ResponseDescription: typeof ACCEPTED_DESCRIPTION;
}

export function acknowledgement(conversation: Conversation): Acknowledgement {
  return {
    OriginatorConversationID: conversation.originatorConversationId,
    ConversationID: conversation.conversationId,
    ResponseCode: '0',
    ResponseDescription: ACCEPTED_DESCRIPTION,
  };
}

/** One `{Key, Value}` of ResultParameters or ReferenceData; some keys come with no Value (§M1.3). */
export interface ResultItem {
  Key: string;
  Value?: string | number;
}

/** How a request ended, as its API decides it; `buildResult` writes it as Daraja does. */
export interface ResultOutcome {
  conversation: Conversation;
  /** As Daraja's tables write it: `'0'`, `'2001'`, `'R000002'`, `'SFC_IC0003'`. */
  resultCode: string;
  resultDesc: string;
  /** The transaction's receipt; left out, a failure's placeholder (`OFP0000000`). */
  transactionId?: string | undefined;
  /**
   * A success's parameters, in Daraja's order, each Value in the type Daraja gives it (a number
   * is written as a number: `8959269.60` arrives as `8959269.6`, the same number to any JSON
   * reader). A failure sends none (§M1.3): SIM_RESULT_FAILURE_PARAMETER sends its BOCompletedTime.
   */
  parameters?: ResultItem[] | undefined;
  /** The internal queue Safaricom's QueueTimeoutURL names: `b2c`, `ab`, `reversal`… */
  queue: string;
  /** ReferenceItems in place of that QueueTimeoutURL one (transaction status: its Occasion). */
  reference?: ResultItem[] | undefined;
}

/** The settings that choose among the shapes sources disagree on (config.ts). */
export type ResultStyle = Pick<
  SimulatorConfig,
  'resultStrings' | 'resultFailureParameter' | 'resultReferenceArray'
>;

export interface ResultEnvelope {
  Result: {
    ResultType: number | string;
    ResultCode: number | string;
    ResultDesc: string;
    OriginatorConversationID: string;
    ConversationID: string;
    TransactionID: string;
    ResultParameters?: { ResultParameter: ResultItem | ResultItem[] };
    ReferenceData: { ReferenceItem: ResultItem | ResultItem[] };
  };
}

/**
 * The ReferenceItem of most Results: Safaricom's own internal URL, not the merchant's
 * QueueTimeOutURL (§M1.3).
 */
export function queueTimeoutItem(queue: string): ResultItem {
  return {
    Key: 'QueueTimeoutURL',
    Value: `https://internalsandbox.safaricom.co.ke/mpesa/${queue}results/v1/submit`,
  };
}

/**
 * The Result as captured traffic has it: ResultType `0`, a numeric ResultCode as a number and one
 * with letters as a string, ResultParameters an array on success and absent on failure,
 * ReferenceItem an object when it is one item. Each setting of `style` swaps one of these for the
 * shape another source shows. `at` dates a failure's placeholder TransactionID (and its
 * BOCompletedTime, with SIM_RESULT_FAILURE_PARAMETER).
 */
export function buildResult(outcome: ResultOutcome, style: ResultStyle, at: Date): ResultEnvelope {
  const written = (value: string | number) =>
    style.resultStrings && typeof value === 'number' ? String(value) : value;
  const item = ({ Key, Value }: ResultItem): ResultItem =>
    Value === undefined ? { Key } : { Key, Value: written(Value) };
  const { resultCode } = outcome;
  const failed = resultCode !== '0';
  const parameters = (outcome.parameters ?? []).map(item);
  const reference = (outcome.reference ?? [queueTimeoutItem(outcome.queue)]).map(item);
  let resultParameters: ResultEnvelope['Result']['ResultParameters'];
  if (failed && style.resultFailureParameter) {
    // The one parameter both captured failures of this shape carry (§M1.3).
    resultParameters = { ResultParameter: item({ Key: 'BOCompletedTime', Value: eatNumber(at) }) };
  } else if (!failed && parameters.length > 0) {
    resultParameters = { ResultParameter: parameters };
  }
  return {
    Result: {
      ResultType: written(0),
      ResultCode: /^\d+$/.test(resultCode) ? written(Number(resultCode)) : resultCode,
      ResultDesc: outcome.resultDesc,
      OriginatorConversationID: outcome.conversation.originatorConversationId,
      ConversationID: outcome.conversation.conversationId,
      TransactionID: outcome.transactionId ?? placeholderTransactionId(at),
      ...(resultParameters && { ResultParameters: resultParameters }),
      ReferenceData: {
        ReferenceItem:
          reference.length === 1 && !style.resultReferenceArray ? reference[0]! : reference,
      },
    },
  };
}

/**
 * What the QueueTimeOutURL notice says. Invented: no notice was ever captured (§M1.4); this code
 * and text are the only ones found, in one library's example, and `1` is also B2C's "balance
 * insufficient", which a receiver must not read into a notice.
 */
export const QUEUE_TIMEOUT_NOTICE = {
  resultCode: '1',
  resultDesc: 'The service request has timed out.',
} as const;

/**
 * The notice SIM_QUEUE_TIMEOUT_NOTICE_MS sends to QueueTimeOutURL before the Result: a failed
 * Result's envelope with the request's ids, as the one library that models it has it (§M1.4).
 */
export function buildNotice(outcome: ResultOutcome, style: ResultStyle, at: Date): ResultEnvelope {
  return buildResult(
    { ...outcome, ...QUEUE_TIMEOUT_NOTICE, transactionId: undefined, parameters: undefined },
    style,
    at,
  );
}
