/**
 * The ledger's control API at its edges (docs/daraja-protocol.md §M12): account names an object
 * has by inheritance (`toString`), balances at the simulator's bound, where every sum must still
 * be exact to the cent, names with control characters, and the simulator's own shortcode's name
 * after a restart with another SIM_BUSINESS_NAME.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SHORTCODE_MAX_BALANCE } from '../../money/accounts.ts';
import { darajaAmount } from '../../money/amounts.ts';
import { readStateFile } from '../../state.ts';
import { call, startSimulator, type Harness } from '../../test/harness.ts';
import { MAX_ACCOUNT_RULE } from './money.routes.ts';

const running: Harness[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const sim of running.splice(0)) await sim.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function started(env: Record<string, string> = {}) {
  const sim = await startSimulator(env);
  running.push(sim);
  return sim;
}

const put = (url: string, body: object) =>
  call(url, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });

const stateFile = () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-ledger-edges-'));
  return path.join(dir, 'state.json');
};

const UTILITY = (shortcode: string) => ({ shortcode, account: 'Utility Account' }) as const;
const LARGEST = darajaAmount(SHORTCODE_MAX_BALANCE); // "1000000000000.00"

describe('PUT /_sim/ledger/shortcodes/:shortcode', () => {
  it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf'])(
    'refuses %s as an account name, and the simulator starts again on its state file',
    async (account) => {
      const file = stateFile();
      const sim = await started({ SIM_STATE: file });
      const answer = await put(`${sim.url}/_sim/ledger/shortcodes/600992`, {
        balances: { [account]: '5.00' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(new RegExp(`^A paybill has no ${account}: its accounts`));
      await sim.close();
      running.splice(0);
      expect(() => readStateFile(file)).not.toThrow();
    },
  );

  it('refuses a balance past the simulator’s bound, which keeps every sum exact', async () => {
    const sim = await started();
    const url = `${sim.url}/_sim/ledger/shortcodes/600992`;
    // Number.MAX_SAFE_INTEGER cents: a cent added to it was a cent made up.
    for (const balance of ['90071992547409.91', '1000000000000.01']) {
      const answer = await put(url, { balances: { 'Utility Account': balance } });
      expect(answer).toEqual({
        status: 400,
        body: { error: `body/balances/Utility Account ${MAX_ACCOUNT_RULE}` },
      });
    }
    const lowest = await put(url, { balances: { 'Charges Paid Account': `-${LARGEST}` } });
    expect(lowest.body.accounts['Charges Paid Account']).toBe(`-${LARGEST}`);
    const below = await put(url, { balances: { 'Charges Paid Account': '-1000000000000.01' } });
    expect(below.status).toBe(400);
  });

  it('refuses a payment that would take an account past the bound, and moves nothing', async () => {
    const sim = await started();
    await put(`${sim.url}/_sim/ledger/shortcodes/600992`, {
      balances: { 'Utility Account': `${LARGEST}` },
    });
    const moved = sim.ledger.move({
      kind: 'b2b',
      amount: 1,
      from: UTILITY('174379'),
      to: UTILITY('600992'),
    });
    expect(moved).toMatchObject({ ok: false, reason: 'max-balance', resultCode: '8' });
    expect(sim.ledger.shortcode('600992').accounts['Utility Account']).toBe(SHORTCODE_MAX_BALANCE);
    expect(sim.ledger.shortcode('174379').accounts['Utility Account']).toBe(1_000_000_00);
    // Short of the bound, a payment is made to the cent.
    await put(`${sim.url}/_sim/ledger/shortcodes/600992`, {
      balances: { 'Utility Account': '999999999999.99' },
    });
    expect(
      sim.ledger.move({ kind: 'b2b', amount: 1, from: UTILITY('174379'), to: UTILITY('600992') })
        .ok,
    ).toBe(true);
    expect(sim.ledger.shortcode('600992').accounts['Utility Account']).toBe(SHORTCODE_MAX_BALANCE);
  });

  it('refuses charges that would take the Charges Paid Account below the lowest', async () => {
    const sim = await started();
    await put(`${sim.url}/_sim/ledger/shortcodes/600992`, {
      balances: { 'Charges Paid Account': `-${LARGEST}` },
    });
    const moved = sim.ledger.move({
      kind: 'b2c',
      amount: 100_00,
      charges: 1,
      from: UTILITY('600992'),
      to: { msisdn: '254708374149' },
    });
    expect(moved).toMatchObject({ ok: false, reason: 'insufficient-funds' });
    expect(sim.ledger.shortcode('600992').accounts['Utility Account']).toBe(1_000_000_00);
  });
});

describe('a name with control characters', () => {
  it.each(['John\nDoe', 'John\tDoe', 'John\u0000Doe', 'John\u001b[31mDoe', 'John\u2028Doe'])(
    'is refused for a wallet and a shortcode: %j',
    async (name) => {
      const sim = await started();
      const wallet = await put(`${sim.url}/_sim/ledger/wallets/0708374149`, { name });
      expect(wallet).toEqual({
        status: 400,
        body: { error: 'body/name must not hold control characters' },
      });
      expect(sim.ledger.wallet('254708374149').name).toBe('John Doe');
      const shortcode = await put(`${sim.url}/_sim/ledger/shortcodes/600992`, { name });
      expect(shortcode.status).toBe(400);
    },
  );

  it('is taken when it has none: letters of any script, spaces, emoji', async () => {
    const sim = await started();
    const name = 'Wanjirũ Kamau 🛒';
    const wallet = await put(`${sim.url}/_sim/ledger/wallets/0708374149`, { name });
    expect(wallet.body.name).toBe(name);
  });
});

describe('the simulator’s own shortcode after a restart', () => {
  it('takes SIM_BUSINESS_NAME as configured now, keeping its balances', async () => {
    const file = stateFile();
    const first = await started({ SIM_STATE: file, SIM_BUSINESS_NAME: 'Old Shop' });
    await put(`${first.url}/_sim/ledger/shortcodes/174379`, {
      balances: { 'Utility Account': '1234.56' },
    });
    await first.close();
    running.splice(0);
    const second = await started({ SIM_STATE: file, SIM_BUSINESS_NAME: 'New Shop' });
    const home = second.ledger.shortcode('174379');
    expect(home.name).toBe('New Shop');
    expect(home.accounts['Utility Account']).toBe(1234_56);
  });
});
