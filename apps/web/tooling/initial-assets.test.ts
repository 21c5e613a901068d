// @vitest-environment node
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  initialAssetsOf,
  measureInitialSize,
  overBudget,
  staticImportsOf,
} from './initial-assets.ts';

const BUDGET_SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/web-budget.ts');

/** The index.html Vite writes, with what it loads up front and what it does not. */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <script type="module" crossorigin src="/assets/index-a1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-b2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-c3.css">
    <link rel="preload" href="/api/config" as="fetch" crossorigin="anonymous">
    <script src="https://example.com/elsewhere.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A build folder whose preloaded module is `vendorBytes` of incompressible bytes. */
function fakeBuild(vendorBytes: number): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-budget-'));
  folders.push(dist);
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(dist, 'assets', 'index-a1.js'), 'export const a = 1;\n'.repeat(500));
  fs.writeFileSync(path.join(dist, 'assets', 'vendor-b2.js'), randomBytes(vendorBytes));
  fs.writeFileSync(path.join(dist, 'assets', 'index-c3.css'), 'a { color: red }\n'.repeat(200));
  return dist;
}

function runBudget(dist: string) {
  return spawnSync(process.execPath, [BUDGET_SCRIPT, '--dist', dist], { encoding: 'utf8' });
}

describe('the web budget', () => {
  it('counts the module script, its module preloads and the stylesheets, nothing else', () => {
    expect(initialAssetsOf(INDEX_HTML)).toEqual([
      { href: '/assets/index-a1.js', kind: 'js' },
      { href: '/assets/vendor-b2.js', kind: 'js' },
      { href: '/assets/index-c3.css', kind: 'css' },
    ]);
  });

  it('counts the chunks the first module imports statically, but not those it imports when asked', () => {
    expect(
      staticImportsOf(
        'import{c as e,n as t}from"./jsx-runtime-Dx.js";import"./side-1.js";' +
          'var a=()=>import("./lazy-2.js");export{a as b}from"./re-3.js";',
      ),
    ).toEqual(['./jsx-runtime-Dx.js', './side-1.js', './re-3.js']);
    const dist = fakeBuild(100);
    fs.writeFileSync(
      path.join(dist, 'assets', 'index-a1.js'),
      'import{a}from"./shared-d4.js";const l=()=>import("./lazy-e5.js");\n',
    );
    fs.writeFileSync(path.join(dist, 'assets', 'shared-d4.js'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(dist, 'assets', 'lazy-e5.js'), 'export const l = 1;\n');
    expect(measureInitialSize(dist).assets.map((asset) => asset.file)).toEqual([
      'assets/index-a1.js',
      'assets/vendor-b2.js',
      'assets/index-c3.css',
      'assets/shared-d4.js',
    ]);
  });

  it('adds up their gzip sizes', () => {
    const size = measureInitialSize(fakeBuild(20_000));
    expect(size.assets.map((asset) => asset.file)).toEqual([
      'assets/index-a1.js',
      'assets/vendor-b2.js',
      'assets/index-c3.css',
    ]);
    // Random bytes do not compress: the preloaded module counts for a little more than itself.
    expect(size.totals.js.gzipBytes).toBeGreaterThan(20_000);
    expect(size.totals.js.gzipBytes).toBeLessThan(21_000);
    expect(size.totals.css.gzipBytes).toBeLessThan(200);
    expect(overBudget(size)).toEqual([]);
    expect(overBudget(size, { js: 10_000, css: 10 })).toEqual([
      expect.stringMatching(
        /^The initial JavaScript is 20\.\d\d kB gzipped, over its budget of 10\.00 kB\.$/,
      ),
      expect.stringMatching(
        /^The initial CSS is 0\.\d\d kB gzipped, over its budget of 0\.01 kB\.$/,
      ),
    ]);
  });

  it('passes a build within budget and fails one over it (scripts/web-budget.ts, as CI runs it)', () => {
    const within = runBudget(fakeBuild(90_000));
    expect(within.status, within.stderr).toBe(0);
    expect(within.stdout).toContain('Web budget met.');

    const over = runBudget(fakeBuild(96_000));
    expect(over.status).toBe(1);
    expect(over.stdout).toMatch(/JavaScript +\d/);
    expect(over.stderr).toMatch(
      /The initial JavaScript is 96\.\d\d kB gzipped, over its budget of 95\.00 kB\./,
    );
    expect(over.stderr).toContain('Web budget FAILED');
  });
});
