/**
 * Test rig for transaction status, account balance and reversal: a simulator, a receiver for
 * their Results, a token and a good SecurityCredential, requests sent through `app.inject`, and a
 * customer's STK push payment to pay in.
 */
import { PASSWORD, credentialFor } from './initiators.ts';
import {
  SHORTCODE,
  pushBody,
  startReceiver,
  startSimulator,
  token,
  type Harness,
  type Receiver,
} from './harness.ts';

export const PATHS = {
  status: '/mpesa/transactionstatus/v1/query',
  balance: '/mpesa/accountbalance/v1/query',
  reversal: '/mpesa/reversal/v1/request',
} as const;

export interface ApiRig {
  sim: Harness;
  results: Receiver;
  credential: string;
  /** POSTs `body` to one of the three APIs with the rig's token; the answer's status and JSON. */
  send(
    api: keyof typeof PATHS,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** A request of that API as the docs' sample has it, with the rig's credential and receiver. */
  request(api: keyof typeof PATHS, more?: Record<string, unknown>): Record<string, unknown>;
  /** A paid STK push from `phone` to the simulator's shortcode: its receipt. */
  stkPayment(phone: string, amount: number): Promise<string>;
  /** The `index`th Result posted to ResultURL (waiting for it). */
  result(index: number): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

export async function startApiRig(env: Record<string, string> = {}): Promise<ApiRig> {
  const sim = await startSimulator({ SIM_CALLBACK_DELAY_MS: '20', ...env });
  const results = await startReceiver();
  const bearer = await token(sim.url);
  const credential = await credentialFor(sim, PASSWORD);
  const common = {
    Initiator: 'testapi',
    SecurityCredential: credential,
    ResultURL: results.url,
    QueueTimeOutURL: `${results.url}/timeout`,
    Remarks: 'OK',
  };
  const samples = {
    status: {
      CommandID: 'TransactionStatusQuery',
      PartyA: SHORTCODE,
      IdentifierType: '4',
      Occasion: 'OK',
    },
    balance: { CommandID: 'AccountBalance', PartyA: SHORTCODE, IdentifierType: '4' },
    reversal: {
      CommandID: 'TransactionReversal',
      Amount: '1',
      ReceiverParty: SHORTCODE,
      RecieverIdentifierType: '11',
      Remarks: 'Payment reversal',
    },
  };
  const rig: ApiRig = {
    sim,
    results,
    credential,
    async send(api, body) {
      const answer = await sim.app.inject({
        method: 'POST',
        url: PATHS[api],
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      return { status: answer.statusCode, body: answer.json() };
    },
    request: (api, more = {}) => ({ ...common, ...samples[api], ...more }),
    async stkPayment(phone, amount) {
      const push = await sim.app.inject({
        method: 'POST',
        url: '/mpesa/stkpush/v1/processrequest',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: JSON.stringify(
          pushBody({ Amount: amount, PartyA: phone, PhoneNumber: phone }, `${results.url}/stk`),
        ),
      });
      const id = push.json().CheckoutRequestID as string;
      const prompt = sim.prompts.complete(id, '0', 'test');
      if (!prompt?.receiptNumber) throw new Error(`the push of ${phone} was not paid`);
      return prompt.receiptNumber;
    },
    async result(index) {
      // Only what came to ResultURL: STK's callbacks and timeout notices go to other paths.
      const posted = () => results.received.filter((r) => r.path === '/callback');
      const deadline = Date.now() + 5000;
      while (posted().length <= index) {
        if (Date.now() > deadline) throw new Error(`only ${posted().length} Results arrived`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return posted()[index]!.body;
    },
    async close() {
      await sim.close();
      await results.close();
    },
  };
  return rig;
}
