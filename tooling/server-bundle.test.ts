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

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'server-bundle-'));
  fs.mkdirSync(path.join(root, 'src/words'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package-lock.json'), '{}');
  fs.writeFileSync(path.join(root, 'src/words/greeting.txt'), 'habari');
  fs.writeFileSync(
    path.join(root, 'src/words/words.ts'),
    `import fs from 'node:fs';
import path from 'node:path';
export const greeting = (): string =>
  fs.readFileSync(path.join(import.meta.dirname, 'greeting.txt'), 'utf8');
export const where = { url: import.meta.url, filename: import.meta.filename };
`,
  );
  fs.writeFileSync(
    path.join(root, 'src/server.ts'),
    `import { greeting, where } from './words/words.ts';
console.log(JSON.stringify({ greeting: greeting(), ...where }));
`,
  );
  place = {
    name: 'server',
    entry: path.join(root, 'src/server.ts'),
    root,
    dir: path.join(root, 'bundles'),
  };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (file: string) =>
  JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' })) as Record<
    string,
    string
  >;

describe('the bundle tests start servers from', () => {
  it('reads what its modules read beside themselves, where they are', async () => {
    const file = await bundled(place);
    expect(path.dirname(file)).toBe(place.dir);
    const words = path.join(root, 'src/words/words.ts');
    expect(run(file)).toEqual({
      greeting: 'habari',
      url: `file://${words}`,
      filename: words,
    });
  });

  it('is made once, and again when a module it was made from changes', async () => {
    const first = await bundled(place);
    const made = fs.statSync(first).mtimeMs;
    expect(await bundled(place)).toBe(first);
    expect(fs.statSync(first).mtimeMs).toBe(made);

    const words = path.join(root, 'src/words/words.ts');
    fs.writeFileSync(words, fs.readFileSync(words, 'utf8').replace("'utf8')", "'utf8') + '!'"));
    const second = await bundled(place);
    expect(second).not.toBe(first);
    expect(run(second).greeting).toBe('habari!');
  });

  it('is made again when the lockfile changes (what it holds from node_modules)', async () => {
    await bundled(place);
    const pointer = path.join(place.dir, 'server.json');
    const before = fs.readFileSync(pointer, 'utf8');
    fs.writeFileSync(path.join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    await bundled(place);
    expect(fs.readFileSync(pointer, 'utf8')).not.toBe(before);
  });

  it('is made again when its file is gone', async () => {
    const first = await bundled(place);
    fs.rmSync(first);
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
