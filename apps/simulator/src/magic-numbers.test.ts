/**
 * Every API's magic numbers together, as GET /_sim/info lists them: STK push's (`forcedNumbers`,
 * catalogue.ts) and the others' (`forcedNumbersByApi`, each operation's outcome menu). A number
 * forced by two APIs could not be used for both: a status or reversal number is the customer of a
 * payment made first by STK push or C2B, which must then pay as usual. So each API keeps a block
 * of numbers of its own, and the README's tables say what the code does (package.test.ts checks
 * STK push's table; this file the others').
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSimulator, type Simulator } from './app.ts';
import { loadSimulatorConfig } from './config.ts';
import { MSISDN, SHORTCODE } from './money/accounts.ts';

type Menu = Record<string, { resultCode: string; meaning: string }>;
let sim: Simulator;
let stk: string[];
let byApi: Record<string, Menu>;
beforeAll(async () => {
  sim = await buildSimulator(loadSimulatorConfig({}), { logger: false });
  const info = (await sim.app.inject('/_sim/info')).json();
  stk = Object.keys(info.forcedNumbers);
  byApi = info.forcedNumbersByApi;
});
afterAll(() => sim.app.close());

/**
 * Each API's block: the start its numbers share. C2B's 2547003… and reversal's 25470003… differ
 * in the seventh digit; B2B's are receiving shortcodes, not customers.
 */
const BLOCKS: Record<string, RegExp> = {
  stk: /^25470000\d{4}$/,
  b2c: /^25470002\d{4}$/,
  reversal: /^25470003\d{4}$/,
  status: /^25470004\d{4}$/,
  c2b: /^2547003\d{5}$/,
  b2b: /^70\d{4}$/,
};

describe('the magic numbers of every API', () => {
  it('are listed by GET /_sim/info for each API that plays any', () => {
    expect(Object.keys(byApi).sort()).toEqual(['b2b', 'b2c', 'c2b', 'reversal', 'status']);
    for (const [api, menu] of Object.entries(byApi)) {
      expect(Object.keys(menu).length, api).toBeGreaterThan(0);
    }
  });

  it('are numbers each API takes: customers, or shortcodes for B2B', () => {
    for (const [api, numbers] of Object.entries(byApi)) {
      const form = api === 'b2b' ? SHORTCODE : MSISDN;
      for (const number of Object.keys(numbers)) expect(number, api).toMatch(form);
    }
    for (const number of stk) expect(number).toMatch(MSISDN);
  });

  it('are each in its API’s own block, so that no number is forced by two APIs', () => {
    const all = {
      stk,
      ...Object.fromEntries(Object.entries(byApi).map(([a, m]) => [a, Object.keys(m)])),
    };
    const owners = new Map<string, string[]>();
    for (const [api, numbers] of Object.entries(all)) {
      for (const number of numbers) {
        expect(number, api).toMatch(BLOCKS[api]!);
        owners.set(number, [...(owners.get(number) ?? []), api]);
      }
    }
    const shared = [...owners].filter(([, apis]) => apis.length > 1);
    expect(shared).toEqual([]);
    // No block holds another API's number either: the blocks themselves do not overlap.
    for (const [number, [owner]] of owners) {
      const matching = Object.keys(BLOCKS).filter((api) => BLOCKS[api]!.test(number));
      expect(matching, number).toEqual([owner]);
    }
  });

  it('are never the shortcodes the simulator and the sandbox samples use', () => {
    for (const shortcode of ['174379', '600984', '600992', '600996', '600997', '600000']) {
      expect(byApi.b2b).not.toHaveProperty(shortcode);
    }
  });
});

describe('the README’s tables of them', () => {
  const readme = fs.readFileSync(path.join(import.meta.dirname, '../README.md'), 'utf8');
  /** Rows whose first cell is a 12-digit number or a B2B shortcode: its API (if a column says), and the code its outcome starts with. */
  const documented = new Map(
    [...readme.matchAll(/^\|\s*(2547\d{8}|70\d{4})\s*\|(.+)\|\s*$/gm)].map(([, number, rest]) => {
      const cells = rest!.split('|').map((cell) => cell.trim());
      const code = /^`?"?([A-Za-z0-9_]+)/.exec(cells.at(-1)!)![1];
      return [number!, { api: cells.length > 1 ? cells[0] : undefined, code }];
    }),
  );

  it('have a row for each number of B2C, B2B, status and reversal, with its result code', () => {
    const expected = new Map<string, { api?: string; code: string }>();
    for (const [api, menu] of Object.entries(byApi)) {
      if (api === 'c2b') continue;
      for (const [number, { resultCode }] of Object.entries(menu)) {
        const row = documented.get(number);
        expected.set(number, { ...(row?.api !== undefined && { api }), code: resultCode });
      }
    }
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(expected));
  });

  it('name exactly C2B’s numbers, written as people do (0700300001)', () => {
    const named = [...readme.matchAll(/\b0(7003\d{5})\b/g)].map(([, rest]) => `254${rest}`);
    expect([...new Set(named)].sort()).toEqual(Object.keys(byApi.c2b!).sort());
  });
});
