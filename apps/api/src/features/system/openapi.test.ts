/**
 * The API's description: every route the app registers is in it, with a summary and an example of
 * each answer it declares, and the examples fit the schemas that serialize the real answers; the
 * JSON and the page are served, the page under the app's own Content-Security-Policy.
 *
 * The routes are listed as Fastify registers them (an onRoute hook added to every instance the app
 * makes), not as the description generator saw them, so a route left out of it is caught.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exampleValues as examplesOf, record as obj } from '@mpesa/openapi-page';
import type * as FastifyModule from 'fastify';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import rootPackage from '../../../../../package.json' with { type: 'json' };
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { createTestApp } from '../../test/test-app.ts';

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
 * Registered but not described, on purpose: the CORS preflight answers for every path under /api
 * (the description's introduction says so), and the routes that serve the description itself.
 * The web app's files (@fastify/static) are not registered here: the tests have no build.
 */
const NOT_DESCRIBED = [
  'OPTIONS /api/*',
  'GET /api/openapi.json',
  'GET /api/docs',
  'GET /api/docs/openapi-page.css',
  'GET /api/docs/:route',
];

type Json = Record<string, unknown>;

/** A route's methods, one by one (HEAD routes are Fastify's own copies of the GETs: left out). */
function operations(routes: RouteOptions[]) {
  return routes.flatMap((route) =>
    [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      .map((method) => ({ key: `${method} ${route.url}`, method: method.toLowerCase(), route })),
  );
}

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the API description (/api/openapi.json, /api/docs)', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let document: Json;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    ({ app } = await createTestApp({ database }));
    const answer = await app.inject('/api/openapi.json');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    document = answer.json();
  });
  afterAll(async () => {
    await app?.close();
    await database?.destroy();
  });

  it('is OpenAPI 3.1 with our title and version', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({
      title: 'M-PESA Express API',
      version: rootPackage.version,
      description: expect.stringContaining('"success": false'),
    });
  });

  it('describes every route the app registers, and only those', () => {
    const described = operations(registered).filter(({ key }) => !NOT_DESCRIBED.includes(key));
    // The routes of the API: a sanity check that the hook saw the app being built.
    expect(described.map(({ key }) => key).sort()).toEqual(
      [
        'GET /api/auth/csrf',
        'GET /api/auth/me',
        'GET /api/config',
        'GET /api/health',
        'GET /api/mpesa/receipt-checks/:id',
        'GET /api/mpesa/summary',
        'GET /api/mpesa/transactions',
        'GET /api/mpesa/transactions/:id',
        'GET /api/mpesa/transactions/:id/events',
        'GET /api/mpesa/transactions/export',
        'GET /api/mpesa/transactions/totals',
        'GET /api/ready',
        'POST /api/auth/sign-in',
        'POST /api/auth/sign-out',
        'POST /api/c2b/:secret/confirmation',
        'POST /api/c2b/:secret/validation',
        'POST /api/mpesa/callback/:secret',
        'POST /api/mpesa/callback/:secret/queue-timeout',
        'POST /api/mpesa/callback/:secret/receipt-status',
        'POST /api/mpesa/callback/:secret/refund-status',
        'POST /api/mpesa/callback/:secret/reversal',
        'POST /api/mpesa/receipt-checks',
        'POST /api/mpesa/stkpush',
        'POST /api/mpesa/transactions/:id/check',
        'POST /api/mpesa/transactions/:id/refund',
        'GET /api/payouts',
        'GET /api/payouts/:id',
        'GET /api/payouts/summary',
        'GET /api/payouts/export',
        'POST /api/mpesa/callback/:secret/payout-b2b',
        'POST /api/mpesa/callback/:secret/payout-b2c',
        'POST /api/mpesa/callback/:secret/payout-status',
        'POST /api/payouts',
        'POST /api/payouts/:id/approve',
        'POST /api/payouts/:id/decline',
        'POST /api/payouts/batches',
        'POST /api/payouts/batches/:id/approve',
        'POST /api/payouts/batches/:id/decline',
        'GET /api/links',
        'GET /api/links/:id',
        'POST /api/links',
        'POST /api/links/:id/off',
        'GET /api/links/:id/qr.svg',
        'GET /api/links/:id/qr.png',
        'POST /api/links/:id/mpesa-qr',
        'GET /api/pay/:code',
        'POST /api/pay/:code',
        'GET /api/balance',
        'POST /api/balance/read',
        'POST /api/mpesa/callback/:secret/balance',
      ].sort(),
    );
    const paths = obj(document.paths);
    const inDocument = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(obj(item)).map((method) => `${method} ${path}`),
    );
    expect(inDocument.sort()).toEqual(
      described.map(({ method, route }) => `${method} ${openApiPath(route.url)}`).sort(),
    );
    for (const key of NOT_DESCRIBED) {
      expect(operations(registered).map((operation) => operation.key)).toContain(key);
    }
  });

  it('gives each route a summary, a tag, and an example of every answer it declares', () => {
    for (const { key, method, route } of operations(registered)) {
      if (NOT_DESCRIBED.includes(key)) continue;
      const operation = obj(obj(obj(document.paths)[openApiPath(route.url)])[method]);
      expect(operation.summary, key).toEqual(expect.any(String));
      expect(operation.tags, key).toHaveLength(1);
      const declared = Object.keys(obj(obj(route.schema).response));
      const responses = obj(operation.responses);
      expect(Object.keys(responses), key).toEqual(declared);
      for (const status of declared) {
        expect(examplesOf(obj(responses[status]).content), `${key} ${status}`).not.toEqual([]);
      }
    }
  });

  it('shows examples that the schemas serializing the real answers accept', () => {
    let checked = 0;
    for (const { key, method, route } of operations(registered)) {
      if (NOT_DESCRIBED.includes(key)) continue;
      const operation = obj(obj(obj(document.paths)[openApiPath(route.url)])[method]);
      const schemas = obj(obj(route.schema).response);
      for (const [status, response] of Object.entries(obj(operation.responses))) {
        const schema = schemas[status];
        // The CSV export's stream is sent as it is, through no schema.
        if (!(schema instanceof z.ZodType)) continue;
        for (const example of examplesOf(obj(response).content)) {
          const encoded = z.safeEncode(schema, example);
          expect(encoded.error, `${key} ${status} ${JSON.stringify(example)}`).toBeUndefined();
          checked++;
        }
      }
      const body = obj(route.schema).body;
      if (body instanceof z.ZodType) {
        for (const example of examplesOf(obj(operation.requestBody).content)) {
          expect(body.safeParse(example).error, `${key} body`).toBeUndefined();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('tells the pushes refusals apart by status, each with the codes the code throws', () => {
    const responses = obj(obj(obj(obj(document.paths)['/api/mpesa/stkpush']).post).responses);
    const codes = (status: string) =>
      examplesOf(obj(responses[status]).content).map((example) => obj(example).code);
    expect(codes('400')).toEqual(
      expect.arrayContaining(['VALIDATION_ERROR', 'INVALID_JSON', 'INVALID_IDEMPOTENCY_KEY']),
    );
    expect(codes('409')).toEqual(['IDEMPOTENCY_KEY_IN_USE']);
    expect(codes('413')).toEqual(['BODY_TOO_LARGE']);
    expect(codes('415')).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    expect(codes('422')).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    expect(new Set(codes('429'))).toEqual(
      new Set(['TOO_MANY_REQUESTS', 'RATE_LIMITED', 'PHONE_BUSY']),
    );
    expect(codes('500')).toEqual(['INTERNAL_ERROR']);
    expect(codes('502')).toEqual(['MPESA_REJECTED']);
    expect(new Set(codes('503'))).toEqual(
      new Set(['MPESA_BUSY', 'MPESA_UNREACHABLE', 'SHUTTING_DOWN', 'DATABASE_UNAVAILABLE']),
    );
    expect(codes('504')).toEqual(['MPESA_NO_ANSWER']);
    expect(obj(obj(responses['429']).headers)).toHaveProperty('Retry-After');
    expect(obj(obj(responses['503']).headers)).toHaveProperty('Retry-After');
  });

  it('serves a readable page under the app’s own Content-Security-Policy, with no script or inline style', async () => {
    const health = await app.inject('/api/health');
    const page = await app.inject('/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(health.headers['content-security-policy']);
    expect(page.body).toContain('<h1>M-PESA Express API</h1>');
    expect(page.body).toContain('<a href="docs/post-api-mpesa-stkpush">');
    expect(page.body).not.toMatch(/<script|\sstyle=/i);
    expect(page.body).toContain('<link rel="stylesheet" href="docs/openapi-page.css">');

    const push = await app.inject('/api/docs/post-api-mpesa-stkpush');
    expect(push.statusCode).toBe(200);
    expect(push.headers['content-security-policy']).toBe(health.headers['content-security-policy']);
    expect(push.body).toContain('<code class="path">/api/mpesa/stkpush</code>');
    expect(push.body).toContain('IDEMPOTENCY_KEY_REUSED');
    expect(push.body).not.toMatch(/<script|\sstyle=/i);
    expect(push.body).toContain('<link rel="stylesheet" href="openapi-page.css">');

    const stylesheet = await app.inject('/api/docs/openapi-page.css');
    expect(stylesheet.statusCode).toBe(200);
    expect(stylesheet.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('gives every route a page with a curl example, sending the route’s own body example', async () => {
    const host = { host: 'pay.example:8443' };
    const first = (await app.inject({ url: '/api/docs', headers: host })).body;
    const names = [...first.matchAll(/<li id="([a-z0-9-]+)"><a href="docs\/\1">/g)].map(
      ([, name]) => name,
    );
    let page = '';
    for (const name of names) {
      const answer = await app.inject({ url: `/api/docs/${name}`, headers: host });
      expect(answer.statusCode, name).toBe(200);
      page += answer.body;
    }
    const unescape = (html: string) =>
      html
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&amp;', '&');
    const curls = new Map(
      [...page.matchAll(/<code class="curl" data-route="([^"]+)">([^<]*)<\/code>/g)].map(
        ([, route, command]) => [unescape(route ?? ''), unescape(command ?? '')],
      ),
    );
    const routes = Object.entries(obj(document.paths)).flatMap(([path, item]) =>
      Object.keys(obj(item)).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect([...curls.keys()].sort()).toEqual(routes.sort());
    expect(names).toHaveLength(routes.length);
    const withoutExample: string[] = [];
    for (const [route, command] of curls) {
      const [method = '', path = ''] = route.split(' ');
      const operation = obj(obj(obj(document.paths)[path])[method.toLowerCase()]);
      expect(command, route).toMatch(
        new RegExp(
          `^curl (-g )?${method === 'GET' ? '' : `-X ${method} `}'http://pay\\.example:8443/api/`,
        ),
      );
      const content = obj(obj(operation.requestBody).content);
      if (Object.keys(content).length === 0) {
        expect(command, route).not.toContain(' -d ');
        continue;
      }
      expect(command, route).toContain(`-H 'Content-Type: application/json'`);
      const [example] = examplesOf(content);
      if (example === undefined) {
        withoutExample.push(route);
        continue;
      }
      // The body as the shell gives it to curl: the single-quoted word after -d, '\'' a quote.
      const quoted = /-d '((?:[^']|'\\'')*)'$/.exec(command)?.[1];
      const sent = quoted?.replaceAll(`'\\''`, "'");
      expect(JSON.parse(sent ?? ''), route).toEqual(example);
    }
    // Daraja's Result callbacks, described but with no example yet: the page says so.
    expect(withoutExample.sort()).toEqual([
      'POST /api/mpesa/callback/{secret}/balance',
      'POST /api/mpesa/callback/{secret}/payout-b2b',
      'POST /api/mpesa/callback/{secret}/payout-b2c',
      'POST /api/mpesa/callback/{secret}/payout-status',
      'POST /api/mpesa/callback/{secret}/queue-timeout',
      'POST /api/mpesa/callback/{secret}/refund-status',
      'POST /api/mpesa/callback/{secret}/reversal',
    ]);
    expect(curls.get('POST /api/mpesa/stkpush')).toContain(`-H 'Idempotency-Key: `);
  });

  it('finds routes by method, path, summary or tag, with no script (?q=)', async () => {
    const found = await app.inject('/api/docs?q=refund');
    expect(found.statusCode).toBe(200);
    expect(found.body).toContain('id="post-api-mpesa-transactions-id-refund"');
    expect(found.body).not.toContain('id="post-api-mpesa-stkpush"');
    expect(found.body).toMatch(/\d+ routes? of \d+ match/);
    expect(found.body).toContain('value="refund"');
    expect(found.body).not.toMatch(/<script|\sstyle=/i);
    const none = await app.inject('/api/docs?q=nothing-like-this');
    expect(none.body).toContain('No route of');
  });

  it('leaves other addresses under /api to the not-found answer', async () => {
    const odd = ['/api/docs/nothing', '/api/docs/%3Cb%3E', '/api/docs/get-api-health-2'];
    for (const url of ['/api/docs/', ...odd, '/api/docs/get-api-health/x', '/api/openapi.yaml']) {
      const answer = await app.inject(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
    // A route's name longer than any parameter the app takes: the app's own refusal.
    const long = await app.inject(`/api/docs/${'get-'.repeat(100)}`);
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ success: false });
  });
});
