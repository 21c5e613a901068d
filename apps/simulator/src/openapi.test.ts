/**
 * The simulator's description (/_sim/openapi.json, /_sim/docs): every route the simulator registers
 * is in it, with a summary and an example of each answer; the control API's documented refusals
 * are the ones it gives; the description answers this machine only, as the control API does.
 *
 * The routes are listed as Fastify registers them (an onRoute hook on every instance the simulator
 * makes), not as the description generator saw them, so a route left out of it is caught.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exampleValues as examplesOf, record as obj } from '@mpesa/openapi-page';
import type * as FastifyModule from 'fastify';
import type { RouteOptions } from 'fastify';
import simulatorPackage from '../package.json' with { type: 'json' };
import { buildSimulator, type Simulator } from './app.ts';
import { loadSimulatorConfig } from './config.ts';
import { REMOTE_REFUSED } from './remote-access.ts';

const registered = vi.hoisted(() => [] as RouteOptions[]);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof FastifyModule>();
  const fastify = ((options?: Parameters<typeof actual.default>[0]) =>
    actual
      .default(options)
      .addHook('onRoute', (route) => void registered.push(route))) as typeof actual.default;
  return { ...actual, default: fastify };
});

/**
 * Registered but not described, on purpose: the virtual phone's files, and the routes that serve
 * the description itself.
 */
const NOT_DESCRIBED = [
  'GET /*',
  'GET /_sim/openapi.json',
  'GET /_sim/docs',
  'GET /_sim/docs/openapi-page.css',
  'GET /_sim/docs/:route',
];

/** Daraja's routes take every method and refuse all but their own (described) with 405.001. */
const DARAJA = {
  '/oauth/v1/generate': 'get',
  '/mpesa/stkpush/v1/processrequest': 'post',
  '/mpesa/stkpushquery/v1/query': 'post',
  '/mpesa/qrcode/v1/generate': 'post',
  '/mpesa/c2b/v1/registerurl': 'post',
  '/mpesa/c2b/v2/registerurl': 'post',
  '/mpesa/c2b/v1/simulate': 'post',
  '/mpesa/c2b/v2/simulate': 'post',
  '/mpesa/b2c/v3/paymentrequest': 'post',
  '/mpesa/b2c/v1/paymentrequest': 'post',
  '/mpesa/b2b/v1/paymentrequest': 'post',
  '/mpesa/transactionstatus/v1/query': 'post',
  '/mpesa/accountbalance/v1/query': 'post',
  '/mpesa/reversal/v1/request': 'post',
};

type Json = Record<string, unknown>;

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Each registered route and method, HEAD left out (Fastify's copies of the GETs). */
function operations() {
  return registered.flatMap((route) =>
    [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      .map((method) => ({ key: `${method} ${route.url}`, method: method.toLowerCase(), route })),
  );
}

describe('the simulator’s description', () => {
  let sim: Simulator;
  let document: Json;
  const operation = (method: string, path: string) => obj(obj(obj(document.paths)[path])[method]);

  beforeAll(async () => {
    const config = loadSimulatorConfig({ SIM_AUTO_APPROVE_S: '0', LOG_LEVEL: 'silent' });
    sim = await buildSimulator(config, { logger: false });
    const answer = await sim.app.inject('/_sim/openapi.json');
    expect(answer.statusCode).toBe(200);
    document = answer.json();
  });
  afterAll(async () => {
    await sim?.app.close();
  });

  it('is OpenAPI 3.1 with the simulator’s title and version', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({
      title: 'Daraja simulator',
      version: simulatorPackage.version,
    });
  });

  it('describes every route, Daraja’s by the one method each takes, and no other', async () => {
    const expected = new Set<string>();
    for (const { key, method, route } of operations()) {
      if (NOT_DESCRIBED.includes(key)) continue;
      const own = DARAJA[route.url as keyof typeof DARAJA];
      if (own && own !== method) continue;
      expected.add(`${method} ${openApiPath(route.url)}`);
    }
    const described = Object.entries(obj(document.paths)).flatMap(([path, item]) =>
      Object.keys(obj(item)).map((method) => `${method} ${path}`),
    );
    expect(described.sort()).toEqual([...expected].sort());
    expect(described).toEqual(
      expect.arrayContaining([
        'get /oauth/v1/generate',
        'post /mpesa/stkpush/v1/processrequest',
        'get /_sim/prompts/{id}',
        'delete /_sim/numbers/{phone}/next',
      ]),
    );
    for (const key of NOT_DESCRIBED) expect(operations().map((o) => o.key)).toContain(key);

    // The methods left out are refused, as each Daraja route's description says.
    for (const [path, own] of Object.entries(DARAJA)) {
      expect(operation(own, path).description).toContain('405.001');
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const) {
        if (method.toLowerCase() === own) continue;
        const answer = await sim.app.inject({ method, url: path });
        expect(answer.statusCode, `${method} ${path}`).toBe(405);
        expect(answer.json()).toMatchObject({
          errorCode: '405.001',
          errorMessage: `${method} Method Not Allowed`,
        });
      }
    }
  });

  it('gives each route a summary, a tag, and an example of every answer with a body', () => {
    let checked = 0;
    for (const [path, item] of Object.entries(obj(document.paths))) {
      for (const [method, described] of Object.entries(obj(item))) {
        const key = `${method} ${path}`;
        expect(obj(described).summary, key).toEqual(expect.any(String));
        expect(obj(described).tags, key).toHaveLength(1);
        for (const [status, response] of Object.entries(obj(obj(described).responses))) {
          // A 204 has no body to show.
          if (status === '204') continue;
          expect(examplesOf(obj(response).content), `${key} ${status}`).not.toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('documents the control API’s refusals as it gives them', async () => {
    const cases = [
      ['get', '/_sim/prompts', { url: '/_sim/prompts?phone=12' }],
      ['get', '/_sim/events', { url: '/_sim/events?phone=12' }],
      ['get', '/_sim/log', { url: '/_sim/log?limit=501' }],
      [
        'put',
        '/_sim/numbers/{phone}/next',
        { method: 'PUT', url: '/_sim/numbers/12/next', payload: {} },
      ],
      ['delete', '/_sim/numbers/{phone}/next', { method: 'DELETE', url: '/_sim/numbers/12/next' }],
      ['get', '/_sim/prompts/{id}', { url: '/_sim/prompts/ws_CO_none' }],
      [
        'post',
        '/_sim/prompts/{id}/pin',
        { method: 'POST', url: '/_sim/prompts/ws_CO_none/pin', payload: { pin: 1234 } },
      ],
      [
        'post',
        '/_sim/prompts/{id}/pin',
        { method: 'POST', url: '/_sim/prompts/ws_CO_none/pin', payload: { pin: '1234' } },
      ],
      [
        'post',
        '/_sim/prompts/{id}/result',
        { method: 'POST', url: '/_sim/prompts/ws_CO_none/result', payload: { resultCode: '77' } },
      ],
      [
        'put',
        '/_sim/faults',
        {
          method: 'PUT',
          url: '/_sim/faults',
          payload: { rules: [{ operation: 'stkpush', probability: 0, error: 'busy' }] },
        },
      ],
      [
        'put',
        '/_sim/faults',
        {
          method: 'PUT',
          url: '/_sim/faults',
          payload: { rules: [{ operation: 'stkpush', probability: 1, error: 'late' }] },
        },
      ],
      [
        'post',
        '/_sim/clock/advance',
        { method: 'POST', url: '/_sim/clock/advance', payload: { seconds: 0 } },
      ],
      ['get', '/_sim/info', { url: '/_sim/info', remoteAddress: '192.0.2.10' }],
      [
        'post',
        '/_sim/initiators/{name}/unlock',
        { method: 'POST', url: '/_sim/initiators/nobody/unlock' },
      ],
    ] as const;
    for (const [method, path, request] of cases) {
      const answer = await sim.app.inject(request);
      const documented = examplesOf(
        obj(obj(operation(method, path).responses)[answer.statusCode]).content,
      );
      expect(documented, `${request.url} ${answer.statusCode}`).toContainEqual(answer.json());
    }
  });

  it('documents Daraja’s refusals from the catalogue the routes answer from', async () => {
    const answer = await sim.app.inject('/oauth/v1/generate?grant_type=password');
    expect(answer.statusCode).toBe(400);
    const documented = examplesOf(
      obj(obj(operation('get', '/oauth/v1/generate').responses)['400']).content,
    );
    const { requestId: _ignored, ...refusal } = answer.json();
    expect(documented).toContainEqual(expect.objectContaining(refusal));
  });

  it('serves the page, and answers other machines as the control API does', async () => {
    const page = await sim.app.inject('/_sim/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<h1>Daraja simulator</h1>');
    expect(page.body).toContain('<a href="docs/post-mpesa-stkpush-v1-processrequest">');
    expect(page.body).toContain('<a href="docs/post-sim-prompts-id-pin">');
    expect(page.body).not.toMatch(/<script|\sstyle=/i);
    expect((await sim.app.inject('/_sim/docs/openapi-page.css')).statusCode).toBe(200);
    const push = await sim.app.inject('/_sim/docs/post-mpesa-stkpush-v1-processrequest');
    expect(push.statusCode).toBe(200);
    expect(push.body).toContain('<code class="path">/mpesa/stkpush/v1/processrequest</code>');
    expect(push.body).not.toMatch(/<script|\sstyle=/i);

    const pages = ['/_sim/docs', '/_sim/docs/openapi-page.css', '/_sim/docs/get-oauth-v1-generate'];
    for (const url of ['/_sim/openapi.json', ...pages]) {
      const remote = await sim.app.inject({ url, remoteAddress: '192.0.2.10' });
      expect(remote.statusCode, url).toBe(403);
      expect(remote.json()).toEqual({ error: REMOTE_REFUSED });
    }
  });
});
