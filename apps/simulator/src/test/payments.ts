/**
 * Test rig for the payment APIs of the Result family (B2C, B2B): a running simulator, a token, a
 * good SecurityCredential, a receiver for ResultURL, and a call that posts a request.
 */
import { credentialFor, PASSWORD } from './initiators.ts';
import {
  call,
  startReceiver,
  startSimulator,
  token,
  type Harness,
  type JsonAnswer,
  type Receiver,
} from './harness.ts';

export interface PaymentRig {
  sim: Harness;
  results: Receiver;
  /** The initiator's password, encrypted with the simulator's certificate. */
  credential: string;
  post(path: string, body: unknown): Promise<JsonAnswer>;
  /** Waits for the next Result and returns its `Result`. */
  nextResult(): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read any shape
  control(route: string, body?: unknown, method?: string): Promise<JsonAnswer>;
  close(): Promise<void>;
}

export async function startPaymentRig(env: Record<string, string> = {}): Promise<PaymentRig> {
  const sim = await startSimulator({ SIM_CALLBACK_DELAY_MS: '20', ...env });
  const results = await startReceiver();
  const credential = await credentialFor(sim, PASSWORD);
  let taken = 0;
  return {
    sim,
    results,
    credential,
    // A new token each time: a test that moves the clock on a day would outlive any other.
    post: async (path, body) =>
      call(`${sim.url}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${await token(sim.url)}`,
        },
        body,
      }),
    async nextResult() {
      await results.waitFor(++taken);
      return results.received[taken - 1]!.body.Result;
    },
    control: (route, body, method = 'PUT') =>
      call(`${sim.url}/_sim${route}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body,
      }),
    async close() {
      await sim.close();
      await results.close();
    },
  };
}

export const V3 = '/mpesa/b2c/v3/paymentrequest';
export const V1 = '/mpesa/b2c/v1/paymentrequest';
let serial = 0;

/** Daraja's sample B2C request (fixtures/b2c-request.json) with our credential and receiver. */
export function payout(rig: PaymentRig, fields: Record<string, unknown> = {}) {
  return {
    OriginatorConversationID: `600997_Test_${++serial}_${Date.now()}`,
    InitiatorName: 'testapi',
    SecurityCredential: rig.credential,
    CommandID: 'BusinessPayment',
    Amount: '10',
    PartyA: '600992',
    PartyB: '254705912645',
    Remarks: 'remarked',
    QueueTimeOutURL: 'https://example.com/timeout',
    ResultURL: rig.results.url,
    Occassion: 'ChristmasPay',
    ...fields,
  };
}
