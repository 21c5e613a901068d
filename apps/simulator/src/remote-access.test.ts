/**
 * Who may use what (remote-access.ts): Daraja's endpoints answer anyone who reaches SIM_HOST; the
 * control API and the virtual phone answer this machine only unless SIM_REMOTE_CONTROL is on.
 * Clients are played with Fastify inject's remoteAddress; server.test.ts does it over real sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSimulator, type Simulator } from './app.ts';
import { loadSimulatorConfig } from './config.ts';
import { REMOTE_REFUSED, exposureWarning, isLoopback } from './remote-access.ts';
import { pushBody } from './test/harness.ts';

const REMOTE = '192.0.2.10';
const BASIC = `Basic ${Buffer.from('key:secret').toString('base64')}`;

async function simulator(env: Record<string, string> = {}): Promise<Simulator> {
  const config = loadSimulatorConfig({ SIM_AUTO_APPROVE_S: '0', LOG_LEVEL: 'silent', ...env });
  return buildSimulator(config, { logger: false });
}

const CONTROL_AND_PAGE = [
  ['GET', '/_sim/info'],
  ['GET', '/_sim/log'],
  ['GET', '/_sim/prompts'],
  ['GET', '/_sim/events?watch=1'],
  ['POST', '/_sim/reset'],
  ['POST', '/_sim/tokens/expire'],
  ['PUT', '/_sim/numbers/0708374149/next'],
  ['GET', '/'],
  ['GET', '/index.html'],
  ['GET', '/phone.js'],
] as const;

describe('a client on another machine', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await simulator({ SIM_HOST: '0.0.0.0' });
  });
  afterAll(async () => {
    await sim.app.close();
  });

  it.each(CONTROL_AND_PAGE)(
    'gets 403 from %s %s, with a message saying why',
    async (method, url) => {
      const answer = await sim.app.inject({
        method,
        url,
        remoteAddress: REMOTE,
        ...(method === 'PUT' ? { payload: { outcome: '1' } } : {}),
      });
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ error: REMOTE_REFUSED });
      expect(answer.json().error).toContain('SIM_REMOTE_CONTROL=true');
    },
  );

  it('cannot pass for this machine with a forwarding header', async () => {
    const answer = await sim.app.inject({
      url: '/_sim/log',
      remoteAddress: REMOTE,
      headers: {
        'x-forwarded-for': '127.0.0.1',
        'x-real-ip': '127.0.0.1',
        forwarded: 'for=127.0.0.1',
      },
    });
    expect(answer.statusCode).toBe(403);
  });

  it("changes nothing when refused: the next push's choice stays unset", async () => {
    await sim.app.inject({
      method: 'PUT',
      url: '/_sim/numbers/0708374149/next',
      remoteAddress: REMOTE,
      payload: { outcome: '1' },
    });
    expect(sim.prompts.peekForced('254708374149')).toBeUndefined();
  });

  it("still uses Daraja's endpoints: OAuth, STK push and STK query", async () => {
    const oauth = await sim.app.inject({
      url: '/oauth/v1/generate?grant_type=client_credentials',
      headers: { authorization: BASIC },
      remoteAddress: REMOTE,
    });
    expect(oauth.statusCode).toBe(200);
    const bearer = { authorization: `Bearer ${oauth.json().access_token}` };
    const push = await sim.app.inject({
      method: 'POST',
      url: '/mpesa/stkpush/v1/processrequest',
      headers: bearer,
      payload: pushBody(),
      remoteAddress: REMOTE,
    });
    expect(push.statusCode).toBe(200);
    const query = await sim.app.inject({
      method: 'POST',
      url: '/mpesa/stkpushquery/v1/query',
      headers: bearer,
      payload: { ...pushBody(), CheckoutRequestID: push.json().CheckoutRequestID },
      remoteAddress: REMOTE,
    });
    // Daraja's own "still processing" answer, not a refusal by the simulator.
    expect(query.json()).toMatchObject({ errorCode: '500.001.1001' });
  });
});

describe('a client on this machine', () => {
  it('uses the control API and the page over IPv4, IPv6 and IPv4-mapped loopback', async () => {
    const sim = await simulator({ SIM_HOST: '0.0.0.0' });
    try {
      for (const remoteAddress of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) {
        expect((await sim.app.inject({ url: '/_sim/info', remoteAddress })).statusCode).toBe(200);
        expect((await sim.app.inject({ url: '/', remoteAddress })).statusCode).toBe(200);
      }
    } finally {
      await sim.app.close();
    }
  });
});

describe('SIM_REMOTE_CONTROL=true', () => {
  it('opens the control API and the page to other machines', async () => {
    const sim = await simulator({ SIM_HOST: '0.0.0.0', SIM_REMOTE_CONTROL: 'true' });
    try {
      expect((await sim.app.inject({ url: '/_sim/info', remoteAddress: REMOTE })).statusCode).toBe(
        200,
      );
      expect((await sim.app.inject({ url: '/', remoteAddress: REMOTE })).statusCode).toBe(200);
    } finally {
      await sim.app.close();
    }
  });
});

describe('the start-up warning', () => {
  it('is silent on a loopback SIM_HOST', () => {
    expect(exposureWarning(loadSimulatorConfig({}))).toBeUndefined();
    expect(exposureWarning(loadSimulatorConfig({ SIM_HOST: '::1' }))).toBeUndefined();
    expect(exposureWarning(loadSimulatorConfig({ SIM_HOST: 'localhost' }))).toBeUndefined();
  });

  it('says what other machines can reach on any other SIM_HOST', () => {
    expect(exposureWarning(loadSimulatorConfig({ SIM_HOST: '0.0.0.0' }))).toBe(
      "SIM_HOST=0.0.0.0: Daraja's endpoints (OAuth, STK push, STK query) are reachable from other machines; the control API (/_sim/) and the virtual phone answer only this machine.",
    );
    expect(
      exposureWarning(loadSimulatorConfig({ SIM_HOST: '192.0.2.2', SIM_REMOTE_CONTROL: '1' })),
    ).toMatch(
      /^SIM_HOST=192\.0\.2\.2: .* and so, with SIM_REMOTE_CONTROL=true, are the control API \(\/_sim\/\) and the virtual phone/,
    );
  });
});

describe('isLoopback', () => {
  it('knows loopback addresses from others', () => {
    for (const address of ['127.0.0.1', '127.255.0.1', '::1', '::ffff:127.0.0.1', 'localhost'])
      expect(isLoopback(address), address).toBe(true);
    for (const address of ['0.0.0.0', '::', '192.0.2.10', '::ffff:192.0.2.10', 'example.com', ''])
      expect(isLoopback(address), address).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });
});
