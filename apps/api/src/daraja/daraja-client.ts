/**
 * The only code that talks to M-PESA (docs/daraja-protocol.md §2, §3, §5, §M3, §M5, §M7): one
 * transport (transport.ts: token, timeout, error envelope) and a module per Daraja API, composed
 * into the client the services are given. Every failure says whether the request could have
 * reached Daraja.
 */
import { readFileSync } from 'node:fs';
import {
  createDarajaTransport,
  type DarajaTransport,
  type DarajaTransportOptions,
} from './transport.ts';
import { stkPush, type StkPushAck, type StkPushRequest, type StkPushSettings } from './stk-push.ts';
import { stkQuery, type StkQueryResult } from './stk-query.ts';
import {
  reversal,
  type InitiatorSettings,
  type ResultAck,
  type ReversalRequest,
} from './reversal.ts';
import { transactionStatus, type StatusQuery } from './transaction-status.ts';
import { registerC2bUrls, type C2bRegistration } from './c2b-register.ts';
import { securityCredential } from './security-credential.ts';

export type { StkPushAck, StkPushRequest } from './stk-push.ts';
export type { StkQueryResult } from './stk-query.ts';
export type { InitiatorSettings, ResultAck, ReversalRequest } from './reversal.ts';
export type { DarajaTransport } from './transport.ts';
export type { StatusQuery } from './transaction-status.ts';
export type { C2bRegistration } from './c2b-register.ts';

/**
 * The API operator (initiator) that reversals and transaction status queries are made as: its
 * SecurityCredential as given, or made from its password and the certificate (§M2).
 */
export interface InitiatorOptions {
  name: string;
  securityCredential?: string | undefined;
  password?: string | undefined;
  certificatePath?: string | undefined;
}

export interface DarajaClientOptions extends DarajaTransportOptions, StkPushSettings {
  /** Undefined: reversals and transaction status cannot be asked for (refunds are not set up). */
  initiator?: InitiatorOptions | undefined;
}

/** Which shortcode a Result API request is about: the one that received the payment. */
interface ForShortcode {
  shortcode: string;
}

/** M-PESA Express: what payments by prompt need. */
export interface DarajaClient {
  stkPush(request: StkPushRequest): Promise<StkPushAck>;
  stkQuery(checkoutRequestId: string): Promise<StkQueryResult>;
}

/** The Result APIs and C2B: what refunds and till or paybill payments need. */
export interface DarajaMoneyClient {
  /** Whether an initiator is set up: without one, the two below throw. */
  readonly canReverse: boolean;
  reversal(request: ReversalRequest & ForShortcode): Promise<ResultAck>;
  transactionStatus(query: StatusQuery & ForShortcode): Promise<ResultAck>;
  registerC2bUrls(registration: C2bRegistration): Promise<{ description: string }>;
  /**
   * What a feature's own Daraja API is asked with, its module in the feature's folder as
   * reversal.ts is here: the transport (the token, the timeout, Daraja's error envelope) and the
   * initiator of a shortcode (throws when none is set up, as the two above do).
   */
  readonly transport: DarajaTransport;
  asInitiator(shortcode: string): InitiatorSettings;
}

/**
 * The initiator's SecurityCredential, made once: a certificate that cannot be read stops the
 * start-up with its path, rather than every refund later.
 */
function credentialFor(initiator: InitiatorOptions): string {
  if (initiator.securityCredential) return initiator.securityCredential;
  const { password, certificatePath } = initiator;
  if (password === undefined || certificatePath === undefined) {
    throw new Error('The initiator needs a SecurityCredential, or a password and a certificate');
  }
  let pem: string;
  try {
    pem = readFileSync(certificatePath, 'utf8');
  } catch (error) {
    throw new Error(
      `MPESA_CERTIFICATE_PATH: cannot read ${certificatePath} (${(error as Error).message})`,
      { cause: error },
    );
  }
  return securityCredential(password, pem);
}

export function createDarajaClient(options: DarajaClientOptions): DarajaClient & DarajaMoneyClient {
  const transport = createDarajaTransport(options);
  const initiator = options.initiator;
  const credential = initiator ? credentialFor(initiator) : undefined;
  const asInitiator = (shortcode: string): InitiatorSettings => {
    if (!initiator || credential === undefined) {
      throw new Error('No initiator is set up (MPESA_INITIATOR_NAME)');
    }
    return { shortcode, initiatorName: initiator.name, securityCredential: credential };
  };
  return {
    stkPush: (request) => stkPush(transport, options, request),
    stkQuery: (checkoutRequestId) => stkQuery(transport, options, checkoutRequestId),
    canReverse: credential !== undefined,
    reversal: (request) => reversal(transport, asInitiator(request.shortcode), request),
    transactionStatus: (query) => transactionStatus(transport, asInitiator(query.shortcode), query),
    registerC2bUrls: (registration) => registerC2bUrls(transport, registration),
    transport,
    asInitiator,
  };
}
