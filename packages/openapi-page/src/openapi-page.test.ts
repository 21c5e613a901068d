import { describe, expect, it } from 'vitest';
import { renderOpenApiPage } from './openapi-page.ts';

const LINKS = { json: 'openapi.json', stylesheet: 'docs/openapi-page.css' };

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

describe('renderOpenApiPage', () => {
  const page = renderOpenApiPage(document, LINKS);

  it('escapes what the document says', () => {
    expect(page).toContain('<title>Shop &lt;API&gt;: reference</title>');
    expect(page).toContain('&quot;error&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(page).not.toContain('<script>');
  });

  it('has no script and no inline style, so that a strict policy lets it render', () => {
    expect(page).not.toMatch(/<script|\sstyle=|javascript:/i);
    expect(page).toContain('<link rel="stylesheet" href="docs/openapi-page.css">');
    expect(page).toContain('<a href="openapi.json">openapi.json</a>');
  });

  it('lists each operation under its tag, and the untagged ones last', () => {
    const orders = page.indexOf('<h2 id="tag-orders">Orders</h2>');
    const other = page.indexOf('<h2 id="tag-other-routes">Other routes</h2>');
    expect(orders).toBeGreaterThan(0);
    expect(other).toBeGreaterThan(orders);
    expect(page).not.toContain('Unused</h2>');
    expect(page).toContain('<a href="#get-orders-id">');
    expect(page).toContain(
      '<h3 id="get-orders-id-title"><span class="method method-get">GET</span> <code class="path">/orders/{id}</code></h3>',
    );
  });

  it('says each field with its type and rules, nested fields by their path', () => {
    expect(page).toContain(
      '<code class="field-name">id</code> <span class="field-type">string</span> <span class="field-notes">(in path, required, at most 40 characters)</span>',
    );
    expect(page).toContain('<code class="field-name">items[].count</code>');
    expect(page).toContain('<span class="field-notes">(optional, at least 1)</span>');
    expect(page).toContain('<span class="field-type">string | null</span>');
    expect(page).toContain('<span class="field-type">&quot;open&quot; | &quot;paid&quot;</span>');
  });

  it('shows every answer with its status, headers and examples', () => {
    expect(page).toContain('<span class="status status-2xx">200</span> OK');
    expect(page).toContain('<span class="status status-4xx">404</span> Not Found');
    expect(page).toContain('<p>No such order: <code>NOT_FOUND</code>.</p>');
    expect(page).toContain('<code class="field-name">Retry-After</code>');
    expect(page).toContain('<figcaption>A paid order</figcaption>');
    expect(page).toContain('<figcaption>Example</figcaption>');
  });

  it('writes descriptions as paragraphs and lists', () => {
    expect(page).toContain('<p>Sells things.</p>');
    expect(page).toContain(
      '<ul><li><code>GET</code> reads</li><li><code>POST</code> writes</li></ul>',
    );
  });
});
