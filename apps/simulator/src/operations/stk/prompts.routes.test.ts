/**
 * STK push's next outcome for a number (PUT /_sim/numbers/:phone/next, prompts.routes.ts): an
 * outcome named after what every object has (`constructor`, `toString`) is no result code and no
 * refusal; taken, it turned the next push into a 500.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, pushBody, startSimulator, token, type Harness } from '../../test/harness.ts';

let sim: Harness | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const json = { 'Content-Type': 'application/json' };

describe('PUT /_sim/numbers/:phone/next for STK push', () => {
  it.each(['hasOwnProperty', 'constructor', 'toString', 'valueOf'])(
    'refuses %s as an outcome, and the next push is answered as usual',
    async (outcome) => {
      sim = await startSimulator();
      const set = await call(`${sim.url}/_sim/numbers/0708374149/next`, {
        method: 'PUT',
        headers: json,
        body: { outcome },
      });
      expect(set.status).toBe(400);
      expect(set.body.error).toMatch(/^body\/outcome /);
      const result = await call(`${sim.url}/_sim/prompts/nope/result`, {
        method: 'POST',
        headers: json,
        body: { resultCode: outcome },
      });
      expect(result.status).toBe(400);
      const push = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: { ...json, Authorization: `Bearer ${await token(sim.url)}` },
        body: pushBody(),
      });
      expect(push.status).toBe(200);
      expect(push.body.ResponseCode).toBe('0');
    },
  );
});
