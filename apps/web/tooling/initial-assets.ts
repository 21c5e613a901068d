/**
 * What the built index.html makes the browser download before the first screen can show (its
 * module script, the modules it preloads and the chunks they import statically, its stylesheets), and what that weighs gzipped: the web
 * budget that the build prints and that `scripts/web-budget.ts` enforces in CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { constants, gzipSync } from 'node:zlib';

/** Largest gzip size, in bytes (kB of 1,000 as Vite prints them), of the initial JavaScript and CSS. */
export const WEB_BUDGET = { js: 95_000, css: 10_000 } as const;

export type AssetKind = keyof typeof WEB_BUDGET;

export interface InitialAsset {
  /** Path under the build folder, e.g. `assets/index-abc123.js`. */
  file: string;
  kind: AssetKind;
  bytes: number;
  gzipBytes: number;
}

export interface InitialSize {
  assets: InitialAsset[];
  totals: Record<AssetKind, { bytes: number; gzipBytes: number }>;
}

const TAG = /<(script|link)\b([^>]*)>/gi;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name = '', double, single, bare] of source.matchAll(ATTRIBUTE)) {
    attributes.set(name.toLowerCase(), double ?? single ?? bare ?? '');
  }
  return attributes;
}

/** The files a page loads up front, in its order: same-origin scripts, module preloads, stylesheets. */
export function initialAssetsOf(html: string): { href: string; kind: AssetKind }[] {
  const found: { href: string; kind: AssetKind }[] = [];
  for (const [, tag = '', source = ''] of html.matchAll(TAG)) {
    const attributes = attributesOf(source);
    const rel = attributes.get('rel')?.toLowerCase();
    const href = tag.toLowerCase() === 'script' ? attributes.get('src') : attributes.get('href');
    if (!href || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) continue;
    if (tag.toLowerCase() === 'script' || rel === 'modulepreload') found.push({ href, kind: 'js' });
    else if (rel === 'stylesheet') found.push({ href, kind: 'css' });
  }
  return found;
}

export function gzipSize(content: Buffer): number {
  return gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length;
}

/**
 * The chunks a built module imports statically (`import {a} from "./x.js"`, `import "./x.js"`):
 * the browser fetches them before the module runs, so they are part of the first screen too. A
 * dynamic `import("./x.js")` is not: it loads when the code asks for it.
 */
export function staticImportsOf(code: string): string[] {
  const found: string[] = [];
  for (const [, specifier = ''] of code.matchAll(
    /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{},\s]*?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g,
  )) {
    found.push(specifier);
  }
  return found;
}

/** Measures the initial assets of the build in `distDir` (its base is `/`). */
export function measureInitialSize(distDir: string): InitialSize {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const totals = { js: { bytes: 0, gzipBytes: 0 }, css: { bytes: 0, gzipBytes: 0 } };
  const assets: InitialAsset[] = [];
  const queue = initialAssetsOf(html).map(({ href, kind }) => ({
    file: href.split(/[?#]/)[0]!.replace(/^\/+/, ''),
    kind,
  }));
  const seen = new Set<string>();
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { file, kind } = next;
    if (seen.has(file)) continue;
    seen.add(file);
    const content = fs.readFileSync(path.join(distDir, file));
    if (kind === 'js') {
      for (const specifier of staticImportsOf(content.toString('utf8'))) {
        queue.push({ file: path.posix.join(path.posix.dirname(file), specifier), kind: 'js' });
      }
    }
    const asset = { file, kind, bytes: content.length, gzipBytes: gzipSize(content) };
    assets.push(asset);
    totals[kind].bytes += asset.bytes;
    totals[kind].gzipBytes += asset.gzipBytes;
  }
  return { assets, totals };
}

/** What is over budget, one sentence each; empty when all is within it. */
export function overBudget(size: InitialSize, budget: Record<AssetKind, number> = WEB_BUDGET) {
  const names: Record<AssetKind, string> = { js: 'JavaScript', css: 'CSS' };
  return (Object.keys(names) as AssetKind[])
    .filter((kind) => size.totals[kind].gzipBytes > budget[kind])
    .map(
      (kind) =>
        `The initial ${names[kind]} is ${kB(size.totals[kind].gzipBytes)} gzipped, over its ` +
        `budget of ${kB(budget[kind])}.`,
    );
}

function kB(bytes: number): string {
  return `${(bytes / 1000).toFixed(2)} kB`;
}

/** The lines the build and the budget check print. */
export function describeInitialSize(
  size: InitialSize,
  budget: Record<AssetKind, number> = WEB_BUDGET,
): string[] {
  const width = Math.max(...size.assets.map((asset) => asset.file.length), 20);
  return [
    'Initial download of the first screen (gzip):',
    ...size.assets.map(
      (asset) =>
        `  ${asset.file.padEnd(width)}  ${kB(asset.bytes).padStart(10)}  gzip ${kB(asset.gzipBytes).padStart(9)}`,
    ),
    `  ${'JavaScript'.padEnd(width)}  ${kB(size.totals.js.bytes).padStart(10)}  gzip ${kB(size.totals.js.gzipBytes).padStart(9)}  (budget ${kB(budget.js)})`,
    `  ${'CSS'.padEnd(width)}  ${kB(size.totals.css.bytes).padStart(10)}  gzip ${kB(size.totals.css.gzipBytes).padStart(9)}  (budget ${kB(budget.css)})`,
  ];
}
