/**
 * The SIM_STATE file's format is the simulator's, not one Daraja API's: a file written before the
 * Daraja APIs were each kept by their own folder (operations/) restores as it did, and is written
 * back with the same keys in the same order, in format 2 (state.ts STATE_VERSION).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Harness } from './test/harness.ts';

let dir: string;
let file: string;
let sim: Harness | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-state-format-'));
  file = path.join(dir, 'state.json');
  return async () => {
    await sim?.close();
    sim = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  };
});

const FAR = '2999-01-01T00:00:00.000Z';
const PAID = {
  checkoutRequestId: 'ws_CO_14032026122653412712345678',
  merchantRequestId: '2654-4b64-97ff-b827b542881d3130',
  businessShortCode: '174379',
  transactionType: 'CustomerPayBillOnline',
  amount: 450,
  partyA: '254712345678',
  partyB: '174379',
  phoneNumber: '254712345678',
  callbackUrl: 'http://127.0.0.1:9/callback',
  accountReference: 'INV-1042',
  transactionDesc: 'Order 1042',
  createdAt: '2026-03-14T09:26:53.412Z',
  expiresAt: '2026-03-14T09:27:53.412Z',
  plan: 'manual',
  forcedResult: null,
  state: 'completed',
  resultCode: '0',
  resultDesc: 'The service request is processed successfully.',
  receiptNumber: 'UCE7RT61SV',
  completedAt: '2026-03-14T09:27:04.118Z',
  completedBy: 'pin',
  callback: 'delivered',
  fault: { duplicates: 1 },
};
const OPEN = {
  ...PAID,
  checkoutRequestId: 'ws_CO_14032026122653412712345679',
  phoneNumber: '254712345679',
  partyA: '254712345679',
  expiresAt: FAR,
  state: 'open',
  resultCode: null,
  resultDesc: null,
  receiptNumber: null,
  completedAt: null,
  completedBy: null,
  callback: 'waiting',
  fault: {},
};
/** As the simulator wrote it before its Daraja APIs had a folder each. */
const EARLIER_FILE = {
  version: 1,
  savedAt: '2026-03-14T09:28:00.000Z',
  tokens: [['c9SQxWWhmdVRlyh0zh8gZDTkubVF', Date.parse(FAR)]],
  prompts: [PAID, OPEN],
  next: [
    ['254700000111', { outcome: { kind: 'result', resultCode: '1032' }, fault: { drop: true } }],
    ['254700000222', { outcome: { kind: 'refuse', error: 'quota' } }],
    ['254700000333', { outcome: { kind: 'manual' } }],
  ],
  clockAheadMs: 0,
  faults: { seed: 7, rules: [{ operation: 'query', probability: 0.5, error: 'gateway' }] },
};

describe('a state file written before each Daraja API had a folder of its own', () => {
  it('restores every prompt, next outcome, token and fault rule, and is written back alike', async () => {
    fs.writeFileSync(file, JSON.stringify(EARLIER_FILE));
    sim = await startSimulator({ SIM_STATE: file, SIM_PROMPT_TIMEOUT_S: '60' });
    expect(sim.prompts.get(PAID.checkoutRequestId)).toEqual(PAID);
    expect(sim.prompts.get(OPEN.checkoutRequestId)).toEqual(OPEN);
    expect(sim.prompts.peekForced('254700000111')).toEqual({ kind: 'result', resultCode: '1032' });
    expect(sim.prompts.peekForced('254700000222')).toEqual({ kind: 'refuse', error: 'quota' });
    expect(sim.prompts.peekForced('254700000333')).toEqual({ kind: 'manual' });
    expect(sim.tokens.isValid('c9SQxWWhmdVRlyh0zh8gZDTkubVF')).toBe(true);
    expect(sim.faults.list()).toEqual(EARLIER_FILE.faults);

    await sim.prompts.saved?.();
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    // The keys added since: the ledger, fresh (the simulator's own shortcode only), first of the
    // Daraja APIs' keys, and the initiators' locks, the other APIs' next outcomes, and the Results
    // owed and ids used by B2C, B2B, transaction status, account balance and reversal and C2B's
    // shortcodes and payments, empty.
    const {
      ledger,
      initiators,
      nextOutcomes,
      b2cResults,
      b2cOriginatorIds,
      b2bResults,
      statusResults,
      balanceResults,
      reversalResults,
      c2b,
      ...earlier
    } = written;
    expect(Object.keys(written).indexOf('ledger')).toBe(
      Object.keys(EARLIER_FILE).indexOf('prompts'),
    );
    expect(ledger).toEqual({
      shortcodes: [expect.objectContaining({ shortcode: '174379', kind: 'paybill' })],
      wallets: [],
      transactions: [],
    });
    expect(initiators).toEqual([]);
    expect(nextOutcomes).toEqual({});
    expect([
      b2cResults,
      b2cOriginatorIds,
      b2bResults,
      statusResults,
      balanceResults,
      reversalResults,
    ]).toEqual([[], [], [], [], [], []]);
    expect(c2b).toEqual({ shortcodes: [], payments: [] });
    expect(Object.keys(earlier)).toEqual(Object.keys(EARLIER_FILE));
    // Written back in format 2, which a simulator that reads only format 1 refuses rather than
    // dropping the keys above (state.ts STATE_VERSION).
    expect(earlier.version).toBe(2);
    expect({ ...earlier, savedAt: EARLIER_FILE.savedAt, clockAheadMs: 0, version: 1 }).toEqual(
      EARLIER_FILE,
    );
  });

  it('restores one written before the clock and the fault rules were kept', async () => {
    const { clockAheadMs: _clock, faults: _faults, ...older } = EARLIER_FILE;
    fs.writeFileSync(file, JSON.stringify(older));
    sim = await startSimulator({ SIM_STATE: file });
    expect(sim.prompts.get(OPEN.checkoutRequestId)?.state).toBe('open');
    expect(sim.faults.list().rules).toEqual([]);
  });
});
