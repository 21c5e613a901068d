/** Outcomes on demand for the APIs after STK push: magic numbers and a number's chosen next outcome. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, startSimulator, type Harness } from '../../test/harness.ts';
import { NextOutcomes, type OutcomeMenu } from './next-outcomes.ts';

/** A menu as an API's might be: two result codes, one magic number (`example`, no real API). */
const MENU: OutcomeMenu = {
  resultCodes: { '0': 'Paid.', '2040': 'Unregistered receiver.' },
  forcedNumbers: { '254700002040': { resultCode: '2040', meaning: 'an unregistered receiver' } },
};

let sim: Harness | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function started(env: Record<string, string> = {}) {
  sim = await startSimulator(env);
  sim.outcomes.register('example', MENU);
  return sim;
}

const put = (target: Harness, phone: string, body: unknown) =>
  call(`${target.url}/_sim/numbers/${phone}/next`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body,
  });

describe('PUT /_sim/numbers/:phone/next for an API after STK push', () => {
  it('chooses the next outcome of that API only, used once, then the magic number or nothing', async () => {
    const target = await started();
    const chosen = await put(target, '0711222333', {
      api: 'example',
      outcome: '2040',
      fault: { duplicates: 1 },
    });
    expect(chosen.status).toBe(200);
    expect(target.prompts.peekForced('254711222333')).toBeUndefined(); // STK's own is untouched
    expect(target.outcomes.take('example', '254711222333')).toEqual({
      resultCode: '2040',
      fault: { duplicates: 1 },
    });
    expect(target.outcomes.take('example', '254711222333')).toBeUndefined();
    expect(target.outcomes.take('example', '254700002040')).toEqual({
      resultCode: '2040',
      fault: {},
    });
  });

  it('refuses an API it does not know, a result code the API does not play, and no outcome', async () => {
    const target = await started();
    expect(await put(target, '0711222333', { api: 'c2x', outcome: '0' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^body\/api must be one of stk, (.+, )?example$/) },
    });
    expect(await put(target, '0711222333', { api: 'example', outcome: '1032' })).toMatchObject({
      status: 400,
      body: { error: 'body/outcome must be one of 0, 2040 for example' },
    });
    expect((await put(target, '0711222333', { api: 'example' })).status).toBe(400);
    // STK's outcomes are checked as before.
    expect((await put(target, '0711222333', { outcome: '42' })).status).toBe(400);
    expect((await put(target, '0711222333', { api: 'stk', outcome: '1032' })).status).toBe(200);
  });

  it('forgets a choice on DELETE ?api=, and on POST /_sim/reset', async () => {
    const target = await started();
    await put(target, '0711222333', { api: 'example', outcome: '2040' });
    const deleted = await call(`${target.url}/_sim/numbers/0711222333/next?api=example`, {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(204);
    expect(target.outcomes.take('example', '254711222333')).toBeUndefined();
    // An API it does not know is said so, not silently taken for done.
    const unknown = await call(`${target.url}/_sim/numbers/0711222333/next?api=nope`, {
      method: 'DELETE',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^querystring\/api must be one of stk, .*example/);
    await put(target, '0711222333', { api: 'example', outcome: '2040' });
    await call(`${target.url}/_sim/reset`, { method: 'POST' });
    expect(target.outcomes.take('example', '254711222333')).toBeUndefined();
  });

  it('lists each API’s magic numbers in GET /_sim/info', async () => {
    const target = await started();
    const info = await call(`${target.url}/_sim/info`);
    expect(info.body.forcedNumbersByApi).toMatchObject({ example: MENU.forcedNumbers });
  });

  it('keeps a choice across a restart with SIM_STATE', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sim-outcomes-')), 'state.json');
    const first = await started({ SIM_STATE: file });
    await put(first, '0711222333', { api: 'example', outcome: '2040' });
    await first.close();
    const second = await started({ SIM_STATE: file });
    expect(second.outcomes.take('example', '254711222333')).toEqual({
      resultCode: '2040',
      fault: {},
    });
  });
});

describe('NextOutcomes.set', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'refuses %s, which every object has, as a result code',
    (code) => {
      const outcomes = new NextOutcomes();
      outcomes.register('b2c', { resultCodes: { '0': 'Paid.' }, forcedNumbers: {} });
      expect(outcomes.set('b2c', '254708374149', { resultCode: code })).toBe(
        'outcome must be one of 0 for b2c',
      );
      expect(outcomes.take('b2c', '254708374149')).toBeUndefined();
    },
  );

  it('names only STK push, with no stray comma, when no other API is registered', () => {
    expect(new NextOutcomes().set('b2c', '254708374149', { resultCode: '0' })).toBe(
      'api must be one of stk',
    );
  });
});
