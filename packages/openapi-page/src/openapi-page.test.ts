import { describe, expect, it } from 'vitest';
import { OPENAPI_PAGE_CSS, openApiPages, renderOpenApiPage } from './openapi-page.ts';
import { curlCommand, shellQuote } from './curl.ts';
import { originOf } from './openapi-routes.ts';

const LINKS = { json: 'openapi.json', page: 'docs' };

const document = {
  openapi: '3.1.0',
  info: {
    title: 'Shop <API>',
    version: '1.2.3',
    description: 'Sells things.\n\n- `GET` reads\n- `POST` writes',
  },
  tags: [{ name: 'Orders', description: 'Orders and their items.' }, { name: 'Unused' }],
  paths: {
    '/orders/{id}': {
      get: {
        summary: 'One order',
        tags: ['Orders'],
        parameters: [
          {
            in: 'path',
            name: 'id',
            required: true,
            schema: { type: 'string', maxLength: 40 },
            description: 'The order’s id',
          },
        ],
        responses: {
          200: {
            description: 'The order.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' },
                    items: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          sku: { type: 'string' },
                          count: { type: 'integer', minimum: 1 },
                        },
                        required: ['sku'],
                      },
                    },
                    note: { type: ['string', 'null'] },
                    status: { type: 'string', enum: ['open', 'paid'] },
                  },
                  required: ['id', 'items'],
                },
                examples: {
                  paid: {
                    summary: 'A paid order',
                    value: { id: 'o-1', items: [], status: 'paid' },
                  },
                },
              },
            },
          },
          404: {
            description: 'No such order: `NOT_FOUND`.',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds' } },
            content: {
              'application/json': {
                schema: { type: 'object', properties: { error: { type: 'string' } } },
                example: { error: '<script>alert(1)</script>' },
              },
            },
          },
        },
      },
    },
    '/health': { get: { summary: 'Up?', responses: { 200: { description: 'Up.' } } } },
  },
};

describe('the pages', () => {
  const pages = openApiPages(document, LINKS);
  const first = pages.contents();
  const order = pages.route('get-orders-id') ?? '';

  it('escapes what the document says', () => {
    expect(first).toContain('<title>Shop &lt;API&gt;: reference</title>');
    expect(order).toContain('<title>GET /orders/{id} in Shop &lt;API&gt;: reference</title>');
    expect(order).toContain('&quot;error&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(order).not.toContain('<script>');
  });

  it('have no script and no inline style, so that a strict policy lets them render', () => {
    expect(first).not.toMatch(/<script|\sstyle=|javascript:/i);
    expect(order).not.toMatch(/<script|\sstyle=|javascript:/i);
    // The first page is `docs`, a route's page `docs/<route>`: each links from where it is.
    expect(first).toContain('<link rel="stylesheet" href="docs/openapi-page.css">');
    expect(first).toContain('<a href="openapi.json">openapi.json</a>');
    expect(order).toContain('<link rel="stylesheet" href="openapi-page.css">');
    expect(order).toContain('<a href="../openapi.json">openapi.json</a>');
    expect(order).toContain('<h1><a href="../docs">Shop &lt;API&gt;</a></h1>');
  });

  it('list each route under its tag on the first page, the untagged ones last', () => {
    const orders = first.indexOf('<h2 id="tag-orders">Orders</h2>');
    const other = first.indexOf('<h2 id="tag-other-routes">Other routes</h2>');
    expect(orders).toBeGreaterThan(0);
    expect(other).toBeGreaterThan(orders);
    expect(first).not.toContain('Unused</h2>');
    // The route's line keeps its name as an id: `docs#get-orders-id` still finds it.
    expect(first).toContain(
      '<li id="get-orders-id"><a href="docs/get-orders-id"><span class="method method-get">GET</span> <code>/orders/{id}</code></a> One order</li>',
    );
    expect(first).not.toContain('<section class="operation"');
  });

  it('give each route a page: its heading, its tag, and the route before and after it', () => {
    expect(order).toContain(
      '<h2 id="get-orders-id-title"><span class="method method-get">GET</span> <code class="path">/orders/{id}</code></h2>',
    );
    expect(order).toContain('<p class="route-tag">In <a href="../docs#tag-orders">Orders</a>.</p>');
    expect(order).toContain(
      '<li>Next: <a href="get-health"><span class="method method-get">GET</span> <code>/health</code></a></li>',
    );
    expect(order).not.toContain('Previous:');
    expect(pages.route('get-health')).toContain('<li>Previous: <a href="get-orders-id">');
    expect(pages.route('get-nothing')).toBeUndefined();
    expect(pages.route('get-orders-id-title')).toBeUndefined();
  });

  it('say each field with its type and rules, nested fields by their path', () => {
    expect(order).toContain(
      '<code class="field-name">id</code> <span class="field-type">string</span> <span class="field-notes">(in path, required, at most 40 characters)</span>',
    );
    expect(order).toContain('<code class="field-name">items[].count</code>');
    expect(order).toContain('<span class="field-notes">(optional, at least 1)</span>');
    expect(order).toContain('<span class="field-type">string | null</span>');
    expect(order).toContain('<span class="field-type">&quot;open&quot; | &quot;paid&quot;</span>');
  });

  it('show every answer with its status, headers and examples', () => {
    expect(order).toContain('<span class="status status-2xx">200</span> OK');
    expect(order).toContain('<span class="status status-4xx">404</span> Not Found');
    expect(order).toContain('<p>No such order: <code>NOT_FOUND</code>.</p>');
    expect(order).toContain('<code class="field-name">Retry-After</code>');
    expect(order).toContain('<figcaption>A paid order</figcaption>');
    expect(order).toContain('<figcaption>Example</figcaption>');
  });

  it('write descriptions as paragraphs and lists, the API’s on the first page alone', () => {
    expect(first).toContain('<p>Sells things.</p>');
    expect(first).toContain(
      '<ul><li><code>GET</code> reads</li><li><code>POST</code> writes</li></ul>',
    );
    expect(order).not.toContain('<p>Sells things.</p>');
  });

  it('name two routes whose method and path read alike apart', () => {
    const alike = openApiPages(
      {
        openapi: '3.1.0',
        info: { title: 'A' },
        paths: {
          '/a-b': { get: { summary: 'One', responses: {} } },
          '/a/b': { get: { summary: 'Two', responses: {} } },
        },
      },
      LINKS,
    );
    expect(alike.route('get-a-b')).toContain('<code class="path">/a-b</code>');
    expect(alike.route('get-a-b-2')).toContain('<code class="path">/a/b</code>');
  });
});

describe('the side index and the search', () => {
  it('fold the index into “Routes” on a phone and keep it in view on a wide screen', () => {
    const page = renderOpenApiPage(document, LINKS);
    expect(page).toContain('<nav class="contents" aria-label="Routes">');
    expect(page).toContain('<details class="contents-phone"><summary>Routes (2)</summary>');
    expect(page).toContain('<main id="routes">');
    expect(OPENAPI_PAGE_CSS).toMatch(/\.contents \{\s+position: sticky;/);
  });

  it('mark the route whose page it is in the index', () => {
    const order = openApiPages(document, LINKS).route('get-orders-id') ?? '';
    expect(order).toContain('<li><a href="get-orders-id" aria-current="page">');
    expect(order).toContain('<li><a href="get-health">');
    expect(order).toContain('<a href="../docs#tag-orders">Orders</a><ul>');
  });

  it('search with a form the server answers (`?q=`), each word in method, path, summary or tag', () => {
    const page = renderOpenApiPage(document, LINKS, { query: '  get ORDERS ' });
    expect(page).toContain(
      '<form class="route-search" role="search" method="get" action="docs">\n<label for="route-search">Search the routes</label>',
    );
    expect(openApiPages(document, LINKS).route('get-health')).toContain(
      '<form class="route-search" role="search" method="get" action="../docs">',
    );
    expect(page).toContain('value="get ORDERS"');
    expect(page).toContain('<title>“get ORDERS” in Shop &lt;API&gt;: reference</title>');
    expect(page).toContain('id="get-orders-id"');
    expect(page).not.toContain('id="get-health"');
    expect(page).not.toContain('href="docs/get-health"');
    expect(page).toContain(
      '1 route of 2 matches “get ORDERS”. <a href="docs">Show all routes</a>.',
    );
    const none = renderOpenApiPage(document, LINKS, { query: '"><b>' });
    expect(none).toContain('No route of 2 match “&quot;&gt;&lt;b&gt;”.');
    expect(none).not.toContain('<b>');
  });
});

describe('the curl examples', () => {
  const api = {
    openapi: '3.1.0',
    info: { title: 'Pay', version: '1' },
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sid', 'x-csrf-header': 'X-CSRF-Token' },
        key: { type: 'http', scheme: 'bearer', 'x-placeholder': 'mpk_…' },
      },
    },
    paths: {
      '/pay/{id}': {
        post: {
          security: [{ session: ['cashier'] }, { key: ['payments:write'] }],
          parameters: [
            {
              in: 'path',
              name: 'id',
              required: true,
              schema: { type: 'string', examples: ['p 1'] },
            },
            { in: 'header', name: 'idempotency-key', schema: { type: 'string' } },
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: {},
                examples: { one: { value: { note: "it's paid" } } },
              },
            },
          },
          responses: {},
        },
      },
      '/me': { get: { security: [{ session: ['viewer'] }], responses: {} } },
      '/open': { get: { security: [{}, { key: ['payments:read'] }], responses: {} } },
    },
  };

  it('quotes for the shell: single quotes, with a quote inside written as four characters', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const { command, body } = curlCommand(
      api,
      'post',
      '/pay/{id}',
      api.paths['/pay/{id}'].post,
      'https://shop.example',
    );
    expect(body).toEqual({ note: "it's paid" });
    expect(command).toBe(
      [
        `curl -X POST 'https://shop.example/pay/p%201'`,
        `-H 'Authorization: Bearer mpk_…'`,
        `-H 'Idempotency-Key: …'`,
        `-H 'Content-Type: application/json'`,
        `-d '{\n  "note": "it'\\''s paid"\n}'`,
      ].join(' \\\n  '),
    );
  });

  it('sends a session’s cookie where no key is taken, and says when none is needed', () => {
    const me = curlCommand(api, 'get', '/me', api.paths['/me'].get, 'http://localhost:3000');
    expect(me.command).toBe(`curl 'http://localhost:3000/me' \\\n  -b 'sid=…'`);
    expect(me.notes.join(' ')).toContain('signed-in session');
    const open = curlCommand(api, 'get', '/open', api.paths['/open'].get, 'http://[::1]:3000');
    expect(open.command).toBe(`curl -g 'http://[::1]:3000/open'`);
    expect(open.notes[0]).toContain('Needs no credential');
  });

  it('calls the origin the page was read at, never an odd Host', () => {
    expect(originOf('https', 'pay.example:8443')).toBe('https://pay.example:8443');
    expect(originOf('http', "evil'$(rm -rf)")).toBe('http://localhost');
  });
});
