/** A refund's request to Daraja, against the simulator as Daraja: acknowledged, then its Result. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../test/simulator.ts';
import { DarajaError } from './daraja-error.ts';
import { parameter, parseResult } from './result-parser.ts';
import { reversal, type InitiatorSettings } from './reversal.ts';
import { securityCredential } from './security-credential.ts';
import { stkPush } from './stk-push.ts';
import { transactionStatus } from './transaction-status.ts';
import { createDarajaTransport, type DarajaTransport } from './transport.ts';

const SHORTCODE = '174379';
const PASSKEY = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';

let sim: RunningSimulator;
let transport: DarajaTransport;
let initiator: InitiatorSettings;
let server: http.Server;
let receiverUrl: string;
const results: unknown[] = [];

beforeAll(async () => {
  sim = await startSimulator({ SIM_CALLBACK_DELAY_MS: '20' });
  transport = createDarajaTransport({
    baseUrl: sim.url,
    consumerKey: 'key',
    consumerSecret: 'secret',
    timeoutMs: 5000,
  });
  const certificate = await (await fetch(`${sim.url}/_sim/certificate`)).text();
  initiator = {
    shortcode: SHORTCODE,
    initiatorName: 'testapi',
    securityCredential: securityCredential('Safaricom999!*!', certificate),
  };
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      results.push(JSON.parse(body));
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sim.close();
  await new Promise((resolve) => server.close(resolve));
});

/** A payment of `amount` from 0708374149, paid: its receipt. */
async function paid(amount: number): Promise<string> {
  const ack = await stkPush(
    transport,
    {
      shortcode: SHORTCODE,
      passkey: PASSKEY,
      transactionType: 'CustomerPayBillOnline',
      partyB: SHORTCODE,
    },
    {
      phoneNumber: '254708374149',
      amount,
      accountReference: 'INV-1',
      transactionDesc: 'Payment',
      callbackUrl: `${receiverUrl}/stk`,
    },
  );
  const receipt = sim.prompts.complete(ack.checkoutRequestId, '0', 'test')?.receiptNumber;
  if (!receipt) throw new Error('the push was not paid');
  return receipt;
}

async function resultFor(conversationId: string) {
  for (let waited = 0; waited < 5000; waited += 20) {
    const found = results.find(
      (body) =>
        (body as { Result?: { ConversationID?: string } }).Result?.ConversationID ===
        conversationId,
    );
    if (found) return (found as { Result: Record<string, unknown> }).Result;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no Result for ${conversationId}`);
}

const request = (transactionId: string, amount: number) => ({
  transactionId,
  amount,
  resultUrl: `${receiverUrl}/result`,
  queueTimeoutUrl: `${receiverUrl}/timeout`,
  remarks: 'Refund: returned goods',
});

describe('a reversal asked of Daraja', () => {
  it('is acknowledged with its ids, then its Result says the money went back', async () => {
    const receipt = await paid(150);
    const wallet = sim.ledger.wallet('254708374149').balance;
    const ack = await reversal(transport, initiator, request(receipt, 150));
    expect(ack.conversationId).toMatch(/^AG_\d{8}_[0-9a-f]{20}$/);
    expect(ack.originatorConversationId).not.toBe('');
    const result = await resultFor(ack.conversationId);
    expect(result).toMatchObject({
      ResultCode: 0,
      OriginatorConversationID: ack.originatorConversationId,
    });
    expect(sim.ledger.wallet('254708374149').balance).toBe(wallet + 150_00);
  });

  it('a second reversal of the same payment gets R000001 in its Result; money moves once', async () => {
    const receipt = await paid(40);
    await resultFor((await reversal(transport, initiator, request(receipt, 40))).conversationId);
    const wallet = sim.ledger.wallet('254708374149').balance;
    const again = await reversal(transport, initiator, request(receipt, 40));
    expect(await resultFor(again.conversationId)).toMatchObject({ ResultCode: 'R000001' });
    expect(sim.ledger.wallet('254708374149').balance).toBe(wallet);
  });

  it('a field Daraja refuses is thrown as rejected, with Daraja’s code', async () => {
    const refused = await reversal(transport, initiator, {
      ...request('X', 10),
      remarks: '',
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DarajaError);
    expect(refused).toMatchObject({ kind: 'rejected', errorCode: '400.002.02' });
  });

  it('is found by transaction status as reversed, its Result read by our parser', async () => {
    const receipt = await paid(60);
    const reversed = await reversal(transport, initiator, request(receipt, 60));
    await resultFor(reversed.conversationId);
    const asked = await transactionStatus(transport, initiator, {
      originalConversationId: reversed.originatorConversationId,
      resultUrl: `${receiverUrl}/status`,
      queueTimeoutUrl: `${receiverUrl}/timeout`,
      remarks: 'Where is the refund?',
    });
    const read = parseResult({ Result: await resultFor(asked.conversationId) });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.result.resultCode).toBe('0');
    expect(parameter(read.result, 'TransactionStatus')).toBe('Completed');
    expect(parameter(read.result, 'Amount')).toBe('60');
  });
});
