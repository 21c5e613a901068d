/**
 * An OpenAPI 3.1 document as a readable HTML page: each route under its tag, with its parameters,
 * its request body and every answer it gives, each with its examples.
 *
 * Rendered on the server, with no script and no inline style, so that the page works under the
 * apps' Content-Security-Policy (`script-src 'self'; style-src 'self'`) and with no network. Swagger
 * UI (@fastify/swagger-ui) would have added 2.7 MB, a 1.7 MB script and inline styles the policy
 * refuses; its "try it out" is what curl or any OpenAPI tool fed the JSON document gives instead.
 *
 * It reads only what @fastify/swagger writes from the route schemas; anything it does not know is
 * left out rather than guessed.
 */
import { STATUS_CODES } from 'node:http';
import fs from 'node:fs';
import { escapeHtml, inline, isRecord, json, prose, record, text, type Json } from './html.ts';
import { fieldItem, rules, shape } from './schema-fields.ts';

export interface PageLinks {
  /** The JSON document, relative to the page. */
  json: string;
  /** The page's stylesheet (OPENAPI_PAGE_CSS), relative to the page. */
  stylesheet: string;
}

/** The page's stylesheet, served beside it. */
export const OPENAPI_PAGE_CSS = fs.readFileSync(
  new URL('./openapi-page.css', import.meta.url),
  'utf8',
);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function anchorFor(method: string, path: string): string {
  return `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

// --- Examples ----------------------------------------------------------------------------------

interface Example {
  name: string;
  value: unknown;
}

/** A media type's examples: its named `examples`, its `example`, or its schema's `examples`. */
function examplesOf(media: Json): Example[] {
  const named = record(media.examples);
  const found: Example[] = Object.entries(named).map(([key, entry]) => ({
    name: text(record(entry).summary) ?? key,
    value: record(entry).value,
  }));
  if ('example' in media) found.push({ name: 'Example', value: media.example });
  const inSchema = record(media.schema).examples;
  if (Array.isArray(inSchema)) {
    inSchema.forEach((value, index) =>
      found.push({ name: inSchema.length > 1 ? `Example ${index + 1}` : 'Example', value }),
    );
  }
  return found;
}

/**
 * Every example value of a request body's or an answer's `content` (its media types): what the
 * page shows, and what the apps' tests check against their schemas.
 */
export function exampleValues(content: unknown): unknown[] {
  return Object.values(record(content)).flatMap((media) =>
    examplesOf(record(media)).map(({ value }) => value),
  );
}

export { record } from './html.ts';

function exampleBlocks(examples: Example[], contentType: string): string {
  return examples
    .map(
      ({ name, value }) =>
        `<figure class="example"><figcaption>${inline(escapeHtml(name))}</figcaption>` +
        `<pre><code data-content-type="${escapeHtml(contentType)}">${escapeHtml(json(value))}</code></pre></figure>`,
    )
    .join('');
}

/**
 * A body: its content type, its shape and its examples. An answer's shape is folded away
 * (`<details>`): its examples show it, and the same error shape would otherwise fill the page.
 */
function content(value: unknown, fold: boolean): string {
  return Object.entries(record(value))
    .map(([contentType, media]) => {
      const mediaObject = record(media);
      const fields = shape(record(mediaObject.schema));
      return (
        `<p class="content-type">As <code>${escapeHtml(contentType)}</code>.</p>` +
        (fold ? `<details><summary>Fields</summary>${fields}</details>` : fields) +
        exampleBlocks(examplesOf(mediaObject), contentType)
      );
    })
    .join('');
}

// --- Operations --------------------------------------------------------------------------------

interface Operation {
  method: string;
  path: string;
  anchor: string;
  operation: Json;
}

function parameters(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return '';
  const items = value.map((entry) => {
    const parameter = record(entry);
    const schema = record(parameter.schema);
    const notes = [
      `in ${String(parameter.in)}`,
      parameter.required === true ? 'required' : 'optional',
      ...rules(schema),
    ];
    const example = 'example' in parameter ? parameter.example : undefined;
    return fieldItem(String(parameter.name), schema, notes, parameter.description, example);
  });
  return `<h4>Parameters</h4><ul class="fields">${items.join('')}</ul>`;
}

function requestBody(value: unknown): string {
  if (!isRecord(value)) return '';
  return `<h4>Request body</h4>${prose(value.description)}${content(value.content, false)}`;
}

function responseHeaders(value: unknown): string {
  const headers = Object.entries(record(value));
  if (headers.length === 0) return '';
  const items = headers.map(([name, header]) =>
    fieldItem(name, record(record(header).schema), [], record(header).description),
  );
  return `<p>Headers:</p><ul class="fields">${items.join('')}</ul>`;
}

function responses(value: unknown, anchor: string): string {
  const entries = Object.entries(record(value));
  if (entries.length === 0) return '';
  const blocks = entries.map(([status, response]) => {
    const answer = record(response);
    const reason = STATUS_CODES[Number(status)] ?? '';
    const statusClass = `status-${status.charAt(0)}xx`;
    return (
      '<div class="response">' +
      `<h5 id="${anchor}-${status}"><span class="status ${statusClass}">${escapeHtml(status)}</span> ${escapeHtml(reason)}</h5>` +
      prose(answer.description) +
      responseHeaders(answer.headers) +
      content(answer.content, true) +
      '</div>'
    );
  });
  return `<h4>Responses</h4>${blocks.join('')}`;
}

function methodBadge(method: string): string {
  return `<span class="method method-${method}">${method.toUpperCase()}</span>`;
}

function operationSection({ method, path, anchor, operation }: Operation): string {
  return (
    `<section class="operation" id="${anchor}" aria-labelledby="${anchor}-title">` +
    `<h3 id="${anchor}-title">${methodBadge(method)} <code class="path">${escapeHtml(path)}</code></h3>` +
    prose(operation.summary, 'summary') +
    prose(operation.description) +
    parameters(operation.parameters) +
    requestBody(operation.requestBody) +
    responses(operation.responses, anchor) +
    '</section>'
  );
}

function operationsOf(document: Json): Operation[] {
  return Object.entries(record(document.paths)).flatMap(([path, item]) =>
    METHODS.filter((method) => isRecord(record(item)[method])).map((method) => ({
      method,
      path,
      anchor: anchorFor(method, path),
      operation: record(record(item)[method]),
    })),
  );
}

/** The operations by their first tag, in the document's order of tags (untagged ones last). */
function byTag(document: Json, operations: Operation[]) {
  const declared = (Array.isArray(document.tags) ? document.tags : []).map(record);
  const groups = new Map<string, { description?: string; operations: Operation[] }>();
  for (const tag of declared) {
    const name = text(tag.name);
    if (name) groups.set(name, { description: text(tag.description), operations: [] });
  }
  for (const operation of operations) {
    const tags = operation.operation.tags;
    const name = (Array.isArray(tags) ? text(tags[0]) : undefined) ?? 'Other routes';
    if (!groups.has(name)) groups.set(name, { operations: [] });
    groups.get(name)?.operations.push(operation);
  }
  return [...groups.entries()].filter(([, group]) => group.operations.length > 0);
}

/** The whole page. `document` is an OpenAPI 3.x document as @fastify/swagger gives it. */
export function renderOpenApiPage(document: object, links: PageLinks): string {
  const doc = record(document);
  const info = record(doc.info);
  const title = text(info.title) ?? 'API';
  const groups = byTag(doc, operationsOf(doc));
  const tagAnchor = (name: string) => `tag-${anchorFor('', name)}`;

  const contents = groups
    .map(
      ([name, group]) =>
        `<li><a href="#${tagAnchor(name)}">${escapeHtml(name)}</a><ul>` +
        group.operations
          .map(
            ({ method, path, anchor, operation }) =>
              `<li><a href="#${anchor}">${methodBadge(method)} <code>${escapeHtml(path)}</code></a>` +
              (text(operation.summary) ? ` ${inline(escapeHtml(String(operation.summary)))}` : '') +
              '</li>',
          )
          .join('') +
        '</ul></li>',
    )
    .join('');

  const sections = groups
    .map(
      ([name, group]) =>
        `<section class="tag" aria-labelledby="${tagAnchor(name)}">` +
        `<h2 id="${tagAnchor(name)}">${escapeHtml(name)}</h2>${prose(group.description)}` +
        group.operations.map(operationSection).join('') +
        '</section>',
    )
    .join('');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(links.stylesheet)}">
</head>
<body>
<a class="skip-link" href="#routes">Skip to the routes</a>
<header class="page-header">
<h1>${escapeHtml(title)}</h1>
<p class="version">Version ${escapeHtml(String(info.version ?? ''))}, OpenAPI ${escapeHtml(String(doc.openapi ?? ''))}. The same description as JSON, for tools: <a href="${escapeHtml(links.json)}">${escapeHtml(links.json)}</a>.</p>
${prose(info.description)}
</header>
<nav class="contents" aria-labelledby="contents-title">
<h2 id="contents-title">Routes</h2>
<ul>${contents}</ul>
</nav>
<main id="routes">
${sections}
</main>
</body>
</html>
`;
}
