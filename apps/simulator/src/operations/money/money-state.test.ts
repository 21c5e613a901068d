/**
 * SIM_STATE keeps the ledger (under `ledger`): balances set, payments made and their receipts are
 * there after a restart, in one process and after a `kill -9` the moment after an answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readStateFile } from '../../state.ts';
import { call, startSimulator, type Harness } from '../../test/harness.ts';
import { startProcess, type SimulatorProcess } from '../../test/process.ts';

let dir: string;
let file: string;
const running: Array<Harness | SimulatorProcess> = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-ledger-state-'));
  file = path.join(dir, 'state.json');
  return async () => {
    for (const sim of running.splice(0)) {
      if ('child' in sim) await sim.kill('SIGKILL');
      else await sim.close();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
});

const put = (url: string, body: object) =>
  call(url, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });

describe('SIM_STATE and the ledger', () => {
  it('restores balances and transactions, found again by receipt and OriginatorConversationID', async () => {
    const first = await startSimulator({ SIM_STATE: file });
    running.push(first);
    await put(`${first.url}/_sim/ledger/wallets/0705912645`, {
      balance: 10_000,
      registered: false,
    });
    const paid = first.ledger.move({
      kind: 'b2c',
      amount: 500_00,
      from: { shortcode: '600992', account: 'Utility Account' },
      to: { msisdn: '254705912645' },
      originatorConversationId: 'oc-kept',
    });
    if (!paid.ok) throw new Error(paid.message);
    const before = await call(`${first.url}/_sim/ledger`);
    await first.close();
    running.splice(0);

    expect(readStateFile(file)?.ledger?.transactions).toHaveLength(1);
    const second = await startSimulator({ SIM_STATE: file });
    running.push(second);
    expect((await call(`${second.url}/_sim/ledger`)).body).toEqual(before.body);
    expect(second.ledger.wallet('254705912645')).toMatchObject({
      balance: 10_500_00,
      registered: false,
    });
    expect(second.ledger.byReceipt(paid.transaction.receipt)).toEqual(paid.transaction);
    expect(second.ledger.byOriginatorConversationId('oc-kept')).toEqual(paid.transaction);
  });

  it('restores a file written before the ledger was kept with a fresh ledger', async () => {
    const sim = await startSimulator({ SIM_STATE: file });
    running.push(sim);
    await put(`${sim.url}/_sim/ledger/wallets/0708374149`, { balance: 1 });
    await sim.close();
    running.splice(0);
    const { ledger: _ledger, ...older } = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify(older));
    const again = await startSimulator({ SIM_STATE: file });
    running.push(again);
    expect(again.ledger.wallets()).toEqual([]);
    expect(again.ledger.shortcodes().map((book) => book.shortcode)).toEqual(['174379']);
  });

  it('has a balance set in the file before it answers: a kill -9 right after loses nothing', async () => {
    const env = { SIM_STATE: file, SIM_AUTO_APPROVE_S: '0' };
    const first = await startProcess(env);
    running.push(first);
    const set = await put(`${first.url}/_sim/ledger/shortcodes/600992`, {
      balances: { 'Utility Account': '1234.56' },
    });
    await first.kill('SIGKILL');
    expect(set.status).toBe(200);

    const second = await startProcess(env);
    running.push(second);
    const { body } = await call(`${second.url}/_sim/ledger`);
    expect(body.shortcodes[1]).toMatchObject({
      shortcode: '600992',
      accounts: { 'Utility Account': '1234.56' },
    });
  });
});
