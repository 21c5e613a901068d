/**
 * scripts/server-bundle.ts: the bundle the tests start the API and the simulator from must be
 * their source as it is now, and must find the files its modules read beside themselves.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundled, serverBundle, type BundlePlace } from '../scripts/server-bundle.ts';
import { ROOT } from '../scripts/lib.ts';

let root: string;
let place: BundlePlace;
const file = (relative: string) => path.join(root, relative);

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'server-bundle-'));
  fs.mkdirSync(file('src/words'), { recursive: true });
  fs.writeFileSync(file('package-lock.json'), '{}');
  fs.writeFileSync(file('src/words/greeting.txt'), 'habari');
  fs.writeFileSync(
    file('src/words/words.ts'),
    `import fs from 'node:fs';
import path from 'node:path';
export const greeting = (): string =>
  fs.readFileSync(path.join(import.meta.dirname, 'greeting.txt'), 'utf8');
export const where = { url: import.meta.url, filename: import.meta.filename };
export const wordsIsMain: boolean = import.meta.main;
export const named = "where import.meta.url is"; // import.meta.dirname, in a comment
`,
  );
  // Imported, but nothing of it used: the bundle leaves it out.
  fs.writeFileSync(file('src/unused.ts'), 'export const unused = 1;\n');
  fs.writeFileSync(
    file('src/server.ts'),
    `import { greeting, named, where, wordsIsMain } from './words/words.ts';
import { unused } from './unused.ts';
console.log(JSON.stringify({ greeting: greeting(), ...where, named, wordsIsMain, main: import.meta.main }));
`,
  );
  place = { name: 'server', entry: file('src/server.ts'), root, dir: file('bundles') };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (bundle: string) =>
  JSON.parse(execFileSync(process.execPath, [bundle], { encoding: 'utf8' })) as Record<
    string,
    unknown
  >;

describe('the bundle tests start servers from', () => {
  it('reads what its modules read beside themselves, where they are; only its entry is main', async () => {
    const bundle = await bundled(place);
    expect(path.dirname(bundle)).toBe(place.dir);
    expect(run(bundle)).toEqual({
      greeting: 'habari',
      url: `file://${file('src/words/words.ts')}`,
      filename: file('src/words/words.ts'),
      named: 'where import.meta.url is',
      wordsIsMain: false,
      main: true,
    });
  });

  it('is made once, and again when a module it was made from changes', async () => {
    const first = await bundled(place);
    const made = fs.readFileSync(file('bundles/server.json'), 'utf8');
    expect(await bundled(place)).toBe(first);
    expect(fs.readFileSync(file('bundles/server.json'), 'utf8')).toBe(made);

    const words = file('src/words/words.ts');
    fs.writeFileSync(words, fs.readFileSync(words, 'utf8').replace("'utf8')", "'utf8') + '!'"));
    const second = await bundled(place);
    expect(second).not.toBe(first);
    expect(run(second).greeting).toBe('habari!');
  });

  it('is made again when a module it left out changes', async () => {
    const first = await bundled(place);
    fs.writeFileSync(
      file('src/unused.ts'),
      "export const unused = 1;\nthrow new Error('now it does something');\n",
    );
    const second = await bundled(place);
    expect(second).not.toBe(first);
    expect(() => run(second)).toThrow(/now it does something/);
  });

  it('is made again when the lockfile changes (what it holds from node_modules)', async () => {
    await bundled(place);
    const pointer = file('bundles/server.json');
    const before = fs.readFileSync(pointer, 'utf8');
    fs.writeFileSync(file('package-lock.json'), '{"lockfileVersion":3}');
    await bundled(place);
    expect(fs.readFileSync(pointer, 'utf8')).not.toBe(before);
  });

  it('is made again when its file is gone, or what says which it is cannot be read', async () => {
    const first = await bundled(place);
    fs.rmSync(first);
    expect(await bundled(place)).toBe(first);
    expect(run(first).greeting).toBe('habari');
    fs.writeFileSync(file('bundles/server.json'), '{"file": "serv');
    expect(await bundled(place)).toBe(first);
    expect(run(first).greeting).toBe('habari');
  });

  it('is left out with SERVERS_FROM_SOURCE=1: the source starts instead', async () => {
    process.env.SERVERS_FROM_SOURCE = '1';
    try {
      expect(await serverBundle('api')).toBe(path.join(ROOT, 'apps/api/src/server.ts'));
    } finally {
      delete process.env.SERVERS_FROM_SOURCE;
    }
  });
});
