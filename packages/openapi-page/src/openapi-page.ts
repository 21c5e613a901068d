/**
 * An OpenAPI 3.1 document as readable HTML pages: a first page with every route under its tag, and
 * a page per route with its parameters, its request body, a curl example and every answer it
 * gives, each with its examples. A search form on each page finds routes.
 *
 * Rendered on the server, with no script and no inline style, so that the pages work under the
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

/**
 * Where the pages are, as relative addresses, so that they work under whatever prefix the app
 * gives them. Both are written from the first page's address; a route's page is one step below
 * it (`docs/post-api-mpesa-stkpush`), and its stylesheet is `docs/openapi-page.css`.
 */
export interface PageLinks {
  /** The JSON document (`openapi.json`). */
  json: string;
  /** The first page itself (`docs`): one segment, the folder of the routes' pages. */
  page: string;
}

/** The pages' stylesheet, served beside the routes' pages as `openapi-page.css`. */
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

/** Each route with its name, from its method and path (`-2`, `-3`… where two would share one). */
function operationsOf(document: Json): Operation[] {
  const taken = new Set<string>();
  return Object.entries(record(document.paths)).flatMap(([path, item]) =>
    METHODS.filter((method) => isRecord(record(item)[method])).map((method) => {
      const base = anchorFor(method, path);
      let anchor = base;
      for (let n = 2; taken.has(anchor); n += 1) anchor = `${base}-${n}`;
      taken.add(anchor);
      return { method, path, anchor, operation: record(record(item)[method]) };
    }),
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

/** What a reader asked of a page: the search, and the address it was reached at. */
export interface PageRequest {
  /** The search (`?q=`): the routes whose method, path, summary or tag hold every word. */
  query?: string;
  /** The origin curl examples call, as `https://host:port` (the page's own, by default). */
  origin?: string;
}

/** The longest search taken; the rest is left out. */
export const MAX_QUERY = 100;

const tagAnchor = (name: string) => `tag-${anchorFor('', name)}`;

type Group = [name: string, group: { description?: string; operations: Operation[] }];

/** Whether the route holds every word of the search, in its method, path, summary or tag. */
function matches(operation: Operation, tag: string, words: string[]): boolean {
  const haystack = [operation.method, operation.path, text(operation.operation.summary) ?? '', tag]
    .join(' ')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** Addresses as seen from the first page (depth 0) or from a route's page below it (depth 1). */
function addresses(links: PageLinks, depth: 0 | 1) {
  const up = depth === 0 ? '' : '../';
  return {
    first: `${up}${links.page}`,
    json: `${up}${links.json}`,
    stylesheet: depth === 0 ? `${links.page}/openapi-page.css` : 'openapi-page.css',
    route: (anchor: string) => (depth === 0 ? `${links.page}/${anchor}` : anchor),
  };
}
type Addresses = ReturnType<typeof addresses>;

/** A route as a line of a list: its method and path, linking to its page, and its summary. */
function routeLine(
  { method, path, anchor, operation }: Operation,
  to: Addresses,
  { id = false, current = false } = {},
) {
  return (
    `<li${id ? ` id="${anchor}"` : ''}><a href="${escapeHtml(to.route(anchor))}"${current ? ' aria-current="page"' : ''}>${methodBadge(method)} <code>${escapeHtml(path)}</code></a>` +
    (text(operation.summary) ? ` ${inline(escapeHtml(String(operation.summary)))}` : '') +
    '</li>'
  );
}

/** The side index: every route by tag, the one whose page this is marked as the current one. */
function indexList(groups: Group[], to: Addresses, current?: string): string {
  return (
    '<ul>' +
    groups
      .map(
        ([name, group]) =>
          `<li><a href="${escapeHtml(to.first)}#${tagAnchor(name)}">${escapeHtml(name)}</a><ul>` +
          group.operations
            .map((operation) => routeLine(operation, to, { current: operation.anchor === current }))
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
  apiTitle: string;
  /** The page's own title, before "in <API>: reference". */
  title?: string;
  /** Whether this is the first page (or a search of it), rather than a route's. */
  first: boolean;
  to: Addresses;
  asked: string;
  count: number;
  index: string;
  main: string;
}

/**
 * A page around its main part: the search and the index in a side column that stays in view on a
 * wide screen, folded into "Routes" above the main part on a phone (the index is written twice,
 * each hidden at the other's widths: a closed `<details>` cannot be opened by a stylesheet alone).
 */
function pageHtml(shell: Shell): string {
  const { doc, info, apiTitle, title, first, to, asked, count, index, main } = shell;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title ? `${escapeHtml(title)} in ` : ''}${escapeHtml(apiTitle)}: reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(to.stylesheet)}">
</head>
<body>
<a class="skip-link" href="#routes">Skip to the routes</a>
<header class="page-header">
<h1>${first ? escapeHtml(apiTitle) : `<a href="${escapeHtml(to.first)}">${escapeHtml(apiTitle)}</a>`}</h1>
<p class="version">Version ${escapeHtml(String(info.version ?? ''))}, OpenAPI ${escapeHtml(String(doc.openapi ?? ''))}. The same description as JSON, for tools: <a href="${escapeHtml(to.json)}">openapi.json</a>.</p>
${first && !asked ? prose(info.description) : ''}
</header>
<div class="layout">
<nav class="contents" aria-label="Routes">
<form class="route-search" role="search" method="get" action="${escapeHtml(to.first)}">
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

/** A document made ready for its pages. */
interface Reference {
  doc: Json;
  info: Json;
  apiTitle: string;
  links: PageLinks;
  groups: Group[];
  total: number;
  /** Every route in the order the first page lists them, with its tag. */
  inOrder: { tag: string; operation: Operation }[];
  /** A route's section, its curl example calling `origin`. */
  sectionFor: (operation: Operation, origin: string) => string;
}

/** The first page: every route by tag, one line each, or the routes a search finds. */
function contentsPage(reference: Reference, { query = '' }: PageRequest): string {
  const { groups, total, links } = reference;
  const to = addresses(links, 0);
  const asked = query.trim().slice(0, MAX_QUERY);
  const words = asked.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = groups
    .map(([name, group]): Group => [
      name,
      { ...group, operations: group.operations.filter((op) => matches(op, name, words)) },
    ])
    .filter(([, group]) => group.operations.length > 0);
  const count = shown.reduce((sum, [, group]) => sum + group.operations.length, 0);

  const found =
    words.length === 0
      ? ''
      : `<p class="search-result" role="status">${count === 0 ? 'No route' : count === 1 ? '1 route' : `${count} routes`} of ${total} ${count === 1 ? 'matches' : 'match'} “${escapeHtml(asked)}”. <a href="${escapeHtml(to.first)}">Show all routes</a>.</p>`;
  // Each route's line keeps the route's name as its id, so that an address written when every
  // route was on this page (`docs#post-api-mpesa-stkpush`) still lands on it.
  const body = shown
    .map(
      ([name, group]) =>
        `<section class="tag" aria-labelledby="${tagAnchor(name)}">` +
        `<h2 id="${tagAnchor(name)}">${escapeHtml(name)}</h2>${prose(group.description)}` +
        `<ul class="route-list">${group.operations.map((op) => routeLine(op, to, { id: true })).join('')}</ul>` +
        '</section>',
    )
    .join('');
  return pageHtml({
    ...reference,
    title: asked ? `“${asked}”` : undefined,
    first: true,
    to,
    asked,
    count,
    index: indexList(shown, to),
    main: found + body,
  });
}

/** A route's own page, or undefined for a name no route has. */
function routePage(
  reference: Reference,
  name: string,
  { origin = 'http://localhost' }: PageRequest,
) {
  const { inOrder, links, groups, total } = reference;
  const at = inOrder.findIndex(({ operation }) => operation.anchor === name);
  const here = inOrder[at];
  if (!here) return undefined;
  const to = addresses(links, 1);
  const { operation, tag } = here;
  const step = (label: string, next: (typeof inOrder)[number] | undefined) =>
    next
      ? `<li>${label}: <a href="${escapeHtml(to.route(next.operation.anchor))}">${methodBadge(next.operation.method)} <code>${escapeHtml(next.operation.path)}</code></a></li>`
      : '';
  const main =
    `<p class="route-tag">In <a href="${escapeHtml(to.first)}#${tagAnchor(tag)}">${escapeHtml(tag)}</a>.</p>` +
    reference.sectionFor(operation, origin) +
    `<nav class="steps" aria-label="Previous and next route"><ul>${step('Previous', inOrder[at - 1])}${step('Next', inOrder[at + 1])}</ul></nav>`;
  return pageHtml({
    ...reference,
    title: `${operation.method.toUpperCase()} ${operation.path}`,
    first: false,
    to,
    asked: '',
    count: total,
    index: indexList(groups, to, name),
    main,
  });
}

/**
 * The pages of `document` (an OpenAPI 3.x document as @fastify/swagger gives it), made ready once:
 * `contents` gives the first page (every route by tag, or those a search finds), `route` a route's
 * own page by its name (`post-api-mpesa-stkpush`), or undefined for a name no route has. The
 * routes' sections are kept per origin.
 */
export function openApiPages(document: object, links: PageLinks) {
  const doc = record(document);
  const info = record(doc.info);
  const groups: Group[] = byTag(doc, operationsOf(doc));
  const sectionsByOrigin = new Map<string, Map<string, string>>();

  const sectionFor = (operation: Operation, origin: string) => {
    let sections = sectionsByOrigin.get(origin);
    if (!sections) {
      // A few origins (localhost, the LAN address, the public name), not one per Host header.
      if (sectionsByOrigin.size >= 4)
        sectionsByOrigin.delete(sectionsByOrigin.keys().next().value!);
      sections = new Map();
      sectionsByOrigin.set(origin, sections);
    }
    let section = sections.get(operation.anchor);
    if (section === undefined) {
      section = operationSection(doc, operation, origin);
      sections.set(operation.anchor, section);
    }
    return section;
  };

  const reference: Reference = {
    doc,
    info,
    apiTitle: text(info.title) ?? 'API',
    links,
    groups,
    total: groups.reduce((sum, [, group]) => sum + group.operations.length, 0),
    inOrder: groups.flatMap(([tag, group]) =>
      group.operations.map((operation) => ({ tag, operation })),
    ),
    sectionFor,
  };
  return {
    contents: (request: PageRequest = {}) => contentsPage(reference, request),
    route: (name: string, request: PageRequest = {}) => routePage(reference, name, request),
  };
}

/** The first page, as `openApiPages` gives it. */
export function renderOpenApiPage(
  document: object,
  links: PageLinks,
  request: PageRequest = {},
): string {
  return openApiPages(document, links).contents(request);
}
