/**
 * SIM_STATE and the payment APIs (docs/daraja-protocol.md §M4.5): a B2C or B2B Result owed when
 * the simulator stops is delivered after its restart, and a used v3 OriginatorConversationID stays
 * used.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readStateFile } from '../../state.ts';
import { payout, startPaymentRig, V3, type PaymentRig } from '../../test/payments.ts';
import { B2B_PATH } from '../b2b/b2b.routes.ts';

let dir: string;
let env: Record<string, string>;
const running: PaymentRig[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-b2c-state-'));
  env = { SIM_STATE: path.join(dir, 'state.json'), SIM_CALLBACK_DELAY_MS: '60000' };
});
afterEach(async () => {
  for (const rig of running.splice(0)) await rig.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<PaymentRig> {
  const rig = await startPaymentRig(env);
  running.push(rig);
  return rig;
}

describe('a restart with Results owed', () => {
  it('delivers them when due, and still refuses a used OriginatorConversationID', async () => {
    const first = await start();
    const request = payout(first);
    const b2c = await first.post(V3, request);
    const b2b = await first.post(B2B_PATH, {
      Initiator: 'testapi',
      SecurityCredential: first.credential,
      CommandID: 'BusinessPayBill',
      SenderIdentifierType: '4',
      RecieverIdentifierType: '4',
      Amount: 190,
      PartyA: '600992',
      PartyB: '600000',
      AccountReference: '353353',
      Remarks: 'OK',
      QueueTimeOutURL: 'https://example.com/timeout',
      ResultURL: first.results.url,
    });
    expect([b2c.status, b2b.status]).toEqual([200, 200]);
    const saved = readStateFile(env.SIM_STATE!)!;
    expect(saved.b2cResults).toHaveLength(1);
    expect(saved.b2bResults).toHaveLength(1);
    // The simulator stops; the merchant's receiver (the first rig's) stays.
    await first.sim.close();
    expect(first.results.received).toEqual([]);

    const second = await start();
    expect(
      (await second.post(V3, { ...request, SecurityCredential: second.credential })).body,
    ).toMatchObject({ errorCode: '500.002.1001' });
    await second.control('/clock/advance', { seconds: 60 }, 'POST');
    await first.results.waitFor(2);
    const results = first.results.received.map((each) => each.body.Result);
    expect(results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ConversationID: b2c.body.ConversationID, ResultCode: 0 }),
        expect.objectContaining({ ConversationID: b2b.body.ConversationID, ResultCode: 0 }),
      ]),
    );
    // Delivered, they are owed no more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readStateFile(env.SIM_STATE!)).toMatchObject({ b2cResults: [], b2bResults: [] });
  });
});
