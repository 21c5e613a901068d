/**
 * The only code that talks to M-PESA (docs/daraja-protocol.md §2, §3, §5): one transport
 * (transport.ts: token, timeout, error envelope) and a module per Daraja API, composed into the
 * client the services are given. Every failure says whether the request could have reached Daraja.
 */
import { createDarajaTransport, type DarajaTransportOptions } from './transport.ts';
import { stkPush, type StkPushAck, type StkPushRequest, type StkPushSettings } from './stk-push.ts';
import { stkQuery, type StkQueryResult } from './stk-query.ts';

export type { StkPushAck, StkPushRequest } from './stk-push.ts';
export type { StkQueryResult } from './stk-query.ts';

export interface DarajaClientOptions extends DarajaTransportOptions, StkPushSettings {}

export interface DarajaClient {
  stkPush(request: StkPushRequest): Promise<StkPushAck>;
  stkQuery(checkoutRequestId: string): Promise<StkQueryResult>;
}

export function createDarajaClient(options: DarajaClientOptions): DarajaClient {
  const transport = createDarajaTransport(options);
  return {
    stkPush: (request) => stkPush(transport, options, request),
    stkQuery: (checkoutRequestId) => stkQuery(transport, options, checkoutRequestId),
  };
}
