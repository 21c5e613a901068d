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
import fs from 'node:fs';
import { escapeHtml, inline, isRecord, prose, record, text, type Json } from './html.ts';
import { examplesOf } from './examples.ts';
import { methodBadge, operationSection, type Operation } from './operation-section.ts';

export interface PageLinks {
  /** The JSON document, relative to the page. */
  json: string;
  /** The page's stylesheet (OPENAPI_PAGE_CSS), relative to the page. */
  stylesheet: string;
  /** The page itself, relative to it: where its search form asks (`docs`). */
  page?: string;
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

/** What a reader asked of the page: its search, and the address it was reached at. */
export interface PageRequest {
  /** The search (`?q=`): the routes whose method, path, summary or tag hold every word. */
  query?: string;
  /** The origin curl examples call, as `https://host:port` (the page's own, by default). */
  origin?: string;
}

/** The longest search taken; the rest is left out. */
export const MAX_QUERY = 100;

const tagAnchor = (name: string) => `tag-${anchorFor('', name)}`;

/** Whether the route holds every word of the search, in its method, path, summary or tag. */
function matches(operation: Operation, tag: string, words: string[]): boolean {
  const haystack = [operation.method, operation.path, text(operation.operation.summary) ?? '', tag]
    .join(' ')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

function indexList(groups: [string, { operations: Operation[] }][]): string {
  return (
    '<ul>' +
    groups
      .map(
        ([name, group]) =>
          `<li><a href="#${tagAnchor(name)}">${escapeHtml(name)}</a><ul>` +
          group.operations
            .map(
              ({ method, path, anchor, operation }) =>
                `<li><a href="#${anchor}">${methodBadge(method)} <code>${escapeHtml(path)}</code></a>` +
                (text(operation.summary)
                  ? ` ${inline(escapeHtml(String(operation.summary)))}`
                  : '') +
                '</li>',
            )
            .join('') +
          '</ul></li>',
      )
      .join('') +
    '</ul>'
  );
}

interface Shell {
  doc: Json;
  info: Json;
  title: string;
  links: PageLinks;
  asked: string;
  count: number;
  index: string;
  main: string;
}

/**
 * The page around its routes: the search and the index in a side column that stays in view on a
 * wide screen, folded into "Routes" above them on a phone (the index is written twice, each hidden
 * at the other's widths: a closed `<details>` cannot be opened by a stylesheet alone).
 */
function pageHtml({ doc, info, title, links, asked, count, index, main }: Shell): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${asked ? `“${escapeHtml(asked)}” in ` : ''}${escapeHtml(title)}: reference</title>
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
<div class="layout">
<nav class="contents" aria-label="Routes">
<form class="route-search" role="search" method="get" action="${escapeHtml(links.page ?? 'docs')}">
<label for="route-search">Search the routes</label>
<div class="search-row"><input type="search" id="route-search" name="q" value="${escapeHtml(asked)}" maxlength="${MAX_QUERY}" placeholder="refund, POST, History…"><button type="submit">Search</button></div>
</form>
<details class="contents-phone"><summary>Routes (${count})</summary>${index}</details>
<div class="contents-wide">${index}</div>
</nav>
<main id="routes">
${main}
</main>
</div>
</body>
</html>
`;
}

/**
 * The page of `document` (an OpenAPI 3.x document as @fastify/swagger gives it), made ready once:
 * each call gives the page for a search and an origin, its routes' sections kept per origin.
 */
export function openApiPage(document: object, links: PageLinks) {
  const doc = record(document);
  const info = record(doc.info);
  const title = text(info.title) ?? 'API';
  const groups = byTag(doc, operationsOf(doc));
  const total = groups.reduce((sum, [, group]) => sum + group.operations.length, 0);
  const sectionsByOrigin = new Map<string, Map<string, string>>();

  const sectionsFor = (origin: string) => {
    let sections = sectionsByOrigin.get(origin);
    if (!sections) {
      sections = new Map();
      for (const [, group] of groups) {
        for (const operation of group.operations) {
          sections.set(operation.anchor, operationSection(doc, operation, origin));
        }
      }
      // A few origins (localhost, the LAN address, the public name), not one per Host header.
      if (sectionsByOrigin.size >= 4)
        sectionsByOrigin.delete(sectionsByOrigin.keys().next().value!);
      sectionsByOrigin.set(origin, sections);
    }
    return sections;
  };

  return ({ query = '', origin = 'http://localhost' }: PageRequest = {}): string => {
    const asked = query.trim().slice(0, MAX_QUERY);
    const words = asked.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = groups
      .map(
        ([name, group]) =>
          [
            name,
            { ...group, operations: group.operations.filter((op) => matches(op, name, words)) },
          ] as [string, typeof group],
      )
      .filter(([, group]) => group.operations.length > 0);
    const count = shown.reduce((sum, [, group]) => sum + group.operations.length, 0);
    const sections = sectionsFor(origin);
    const index = indexList(shown);

    const found =
      words.length === 0
        ? ''
        : `<p class="search-result" role="status">${count === 0 ? 'No route' : count === 1 ? '1 route' : `${count} routes`} of ${total} ${count === 1 ? 'matches' : 'match'} “${escapeHtml(asked)}”. <a href="${escapeHtml(links.page ?? 'docs')}">Show all routes</a>.</p>`;

    const body = shown
      .map(
        ([name, group]) =>
          `<section class="tag" aria-labelledby="${tagAnchor(name)}">` +
          `<h2 id="${tagAnchor(name)}">${escapeHtml(name)}</h2>${prose(group.description)}` +
          group.operations.map(({ anchor }) => sections.get(anchor) ?? '').join('') +
          '</section>',
      )
      .join('');

    return pageHtml({ doc, info, title, links, asked, count, index, main: found + body });
  };
}

/** The whole page, as `openApiPage` gives it. */
export function renderOpenApiPage(
  document: object,
  links: PageLinks,
  request: PageRequest = {},
): string {
  return openApiPage(document, links)(request);
}
