/**
 * An initiator locked by wrong credentials in a row (8006, docs/daraja-protocol.md §M2.6): the
 * control routes that show and unlock it, POST /_sim/reset, and SIM_STATE keeping the lock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  INVALID,
  LOCKED,
  PASSED,
  PASSWORD,
  b2c,
  closeAll,
  credentialFor,
  simulator,
} from './test/initiators.ts';
import type { Simulator } from './app.ts';

afterEach(closeAll);

const check = (sim: Simulator, credential: string) =>
  sim.initiators.check(b2c(credential), 'InitiatorName');

/** `times` wrong credentials in a row: each 2001. */
async function failTimes(sim: Simulator, times: number) {
  const wrong = await credentialFor(sim, 'wrong');
  for (let i = 0; i < times; i++) expect(check(sim, wrong), `attempt ${i + 1}`).toEqual(INVALID);
}

const initiators = async (sim: Simulator) => (await sim.app.inject('/_sim/initiators')).json();

describe('wrong credentials in a row', () => {
  it('lock the initiator after SIM_INITIATOR_LOCK_AFTER: 8006, even for the right one, until unlocked', async () => {
    const { sim } = await simulator({ SIM_INITIATOR_LOCK_AFTER: '3' });
    const right = await credentialFor(sim, PASSWORD);
    await failTimes(sim, 3);
    expect(check(sim, right)).toEqual(LOCKED);
    expect(check(sim, 'plain text')).toEqual(LOCKED);
    expect(await initiators(sim)).toEqual({
      lockAfter: 3,
      strictCredentials: false,
      initiators: [{ name: 'testapi', failures: 3, locked: true }],
    });

    const unlocked = await sim.app.inject({
      method: 'POST',
      url: '/_sim/initiators/testapi/unlock',
    });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json()).toEqual({ name: 'testapi', failures: 0, locked: false });
    expect(check(sim, right)).toEqual(PASSED);
  });

  it('lock after 5 by default, and are forgiven by a good credential before that', async () => {
    const { sim } = await simulator();
    const right = await credentialFor(sim, PASSWORD);
    await failTimes(sim, 4);
    expect(check(sim, right)).toEqual(PASSED);
    await failTimes(sim, 4);
    expect((await initiators(sim)).initiators[0]).toEqual({
      name: 'testapi',
      failures: 4,
      locked: false,
    });
    await failTimes(sim, 1);
    expect(check(sim, right)).toEqual(LOCKED);
  });

  it('never lock with SIM_INITIATOR_LOCK_AFTER=0', async () => {
    const { sim } = await simulator({ SIM_INITIATOR_LOCK_AFTER: '0' });
    await failTimes(sim, 20);
    expect(check(sim, await credentialFor(sim, PASSWORD))).toEqual(PASSED);
  });

  it('are forgotten, and the lock with them, on POST /_sim/reset', async () => {
    const { sim } = await simulator({ SIM_INITIATOR_LOCK_AFTER: '1' });
    await failTimes(sim, 1);
    expect((await initiators(sim)).initiators[0].locked).toBe(true);
    expect((await sim.app.inject({ method: 'POST', url: '/_sim/reset' })).statusCode).toBe(204);
    expect((await initiators(sim)).initiators).toEqual([
      { name: 'testapi', failures: 0, locked: false },
    ]);
    expect(check(sim, await credentialFor(sim, PASSWORD))).toEqual(PASSED);
  });
});

describe('POST /_sim/initiators/:name/unlock', () => {
  it('says which initiator the simulator knows when given another', async () => {
    const { sim } = await simulator();
    const answer = await sim.app.inject({ method: 'POST', url: '/_sim/initiators/apiop37/unlock' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({
      error: 'No such initiator: the simulator knows testapi (SIM_INITIATOR_NAME)',
    });
  });
});

describe('SIM_STATE', () => {
  it('keeps a lock and the failures across a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-initiators-'));
    const file = path.join(dir, 'state.json');
    try {
      const env = { SIM_STATE: file, SIM_INITIATOR_LOCK_AFTER: '2' };
      const first = (await simulator(env)).sim;
      await failTimes(first, 2);
      await first.app.close();
      const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(saved.initiators).toEqual([{ name: 'testapi', failures: 2, locked: true }]);

      const second = (await simulator(env)).sim;
      expect(check(second, await credentialFor(second, PASSWORD))).toEqual(LOCKED);
      expect((await initiators(second)).initiators[0].locked).toBe(true);
      // Unlocking is kept too: in the file before it is answered.
      await second.app.inject({ method: 'POST', url: '/_sim/initiators/testapi/unlock' });
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).initiators).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('judges a kept lock again by SIM_INITIATOR_LOCK_AFTER as it is at the restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-initiators-'));
    const file = path.join(dir, 'state.json');
    const restarted = async (lockAfter: string) => {
      const sim = (await simulator({ SIM_STATE: file, SIM_INITIATOR_LOCK_AFTER: lockAfter })).sim;
      const state = (await initiators(sim)).initiators[0];
      await sim.app.close();
      return state;
    };
    try {
      const first = (await simulator({ SIM_STATE: file, SIM_INITIATOR_LOCK_AFTER: '2' })).sim;
      await failTimes(first, 2);
      await first.app.close();
      // Never locks (0), or a higher threshold not yet reached: unlocked, the failures kept.
      expect(await restarted('0')).toMatchObject({ failures: 2, locked: false });
      expect(await restarted('3')).toMatchObject({ failures: 2, locked: false });
      // Back to 2: the two failures lock it again.
      expect(await restarted('2')).toMatchObject({ failures: 2, locked: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a file written before initiators were kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-initiators-'));
    const file = path.join(dir, 'state.json');
    try {
      const first = (await simulator({ SIM_STATE: file })).sim;
      await first.app.close();
      const { initiators: _dropped, ...older } = JSON.parse(fs.readFileSync(file, 'utf8'));
      fs.writeFileSync(file, JSON.stringify(older));
      const second = (await simulator({ SIM_STATE: file })).sim;
      expect((await initiators(second)).initiators[0]).toMatchObject({
        failures: 0,
        locked: false,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
