/**
 * The API's and the simulator's server as one JavaScript file each, for the tests that start them
 * as processes (docs/decisions/010-test-servers-from-a-bundle.md). A process started from source
 * loads some 1,300 modules, our own TypeScript among them, and spends about 1.4 s (the API) and
 * 0.8 s (the simulator) of CPU before it answers; from the bundle 0.8 s and 0.55 s. A test run
 * starts about a hundred.
 *
 * The bundle is the source as it is now: each start compares the modules it was made from (ours,
 * and package-lock.json for the rest) with the files, and bundles again when one changed. Each
 * module keeps its own `import.meta.url`, `import.meta.dirname` and `import.meta.filename`, so
 * what the code reads beside itself (the simulator's public/ and keys/, the reference page's CSS)
 * is read where it always is. SERVERS_FROM_SOURCE=1 starts the sources instead.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'rolldown';
import { ROOT } from './lib.ts';

const ENTRIES = {
  api: 'apps/api/src/server.ts',
  simulator: 'apps/simulator/src/server.ts',
} as const;
export type BundledServer = keyof typeof ENTRIES;

/** Where a bundle is made: the entry module, and the folder it and what it was made from go in. */
export interface BundlePlace {
  name: string;
  entry: string;
  /** The repository: its package-lock.json stands for every module under node_modules. */
  root: string;
  dir: string;
}

/** `<name>.json` beside the bundles: which bundle is current, and what it was made from. */
interface Made {
  file: string;
  /** Each module of ours, and the lockfile, by its path from the root: its size and time. */
  inputs: Record<string, [size: number, mtimeMs: number]>;
}

function stamp(file: string): [number, number] | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? [stat.size, stat.mtimeMs] : undefined;
}

function isCurrent({ root, dir }: BundlePlace, made: Made): boolean {
  if (!fs.existsSync(path.join(dir, made.file))) return false;
  return Object.entries(made.inputs).every(([relative, [size, mtimeMs]]) => {
    const now = stamp(path.join(root, relative));
    return now !== undefined && now[0] === size && now[1] === mtimeMs;
  });
}

/** Each module's `import.meta` paths, written into it as they are at its own place. */
const ownPaths: Plugin = {
  name: 'own-import-meta-paths',
  transform(code, id) {
    if (!path.isAbsolute(id) || !code.includes('import.meta.')) return null;
    const paths: Record<string, string> = {
      url: pathToFileURL(id).href,
      dirname: path.dirname(id),
      filename: id,
    };
    return code.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key: string) =>
      JSON.stringify(paths[key]),
    );
  },
};

async function bundle(place: BundlePlace): Promise<string> {
  const { name, entry, root, dir } = place;
  const { rolldown } = await import('rolldown');
  const build = await rolldown({
    input: entry,
    platform: 'node',
    plugins: [ownPaths],
    logLevel: 'silent',
  });
  const { output } = await build.generate({ format: 'esm', codeSplitting: false });
  await build.close();
  const chunk = output.find((item) => item.type === 'chunk');
  if (!chunk) throw new Error(`Bundling ${entry} made no JavaScript`);
  const inputs: Made['inputs'] = {};
  for (const id of [...chunk.moduleIds, path.join(root, 'package-lock.json')]) {
    if (!path.isAbsolute(id) || id.includes(`${path.sep}node_modules${path.sep}`)) continue;
    const now = stamp(id);
    if (now) inputs[path.relative(root, id)] = now;
  }
  // Named by what it holds, and put in place whole: a test in another worker that starts it
  // meanwhile finds either the old file or this one, never half of one.
  const hash = crypto.createHash('sha256').update(chunk.code).digest('hex').slice(0, 12);
  const file = `${name}-${hash}.mjs`;
  fs.mkdirSync(dir, { recursive: true });
  const unique = `${process.pid}-${crypto.randomUUID()}`;
  const temporary = path.join(dir, `${file}.${unique}`);
  fs.writeFileSync(temporary, chunk.code);
  fs.renameSync(temporary, path.join(dir, file));
  const made: Made = { file, inputs };
  const pointer = path.join(dir, `${name}.json.${unique}`);
  fs.writeFileSync(pointer, JSON.stringify(made));
  fs.renameSync(pointer, path.join(dir, `${name}.json`));
  // The bundles made before, once no start can still be about to read one (a started process has
  // read its file whole: nothing of it is loaded later).
  for (const other of fs.readdirSync(dir)) {
    const older = path.join(dir, other);
    if (
      other.startsWith(`${name}-`) &&
      other !== file &&
      Date.now() - fs.statSync(older).mtimeMs > 600_000
    )
      fs.rmSync(older, { force: true });
  }
  return path.join(dir, file);
}

const pending = new Map<string, Promise<string>>();

/** The bundle of `place.entry` as its source is now: the one made before, or a new one. */
export async function bundled(place: BundlePlace): Promise<string> {
  const pointer = path.join(place.dir, `${place.name}.json`);
  const made = fs.existsSync(pointer)
    ? (JSON.parse(fs.readFileSync(pointer, 'utf8')) as Made)
    : undefined;
  if (made && isCurrent(place, made)) return path.join(place.dir, made.file);
  // Once at a time in this process; another process may make it too, and put it in place whole.
  const key = path.join(place.dir, place.name);
  let making = pending.get(key);
  if (!making) {
    making = bundle(place).finally(() => pending.delete(key));
    pending.set(key, making);
  }
  return making;
}

/** The file to start `name`'s server from: its bundle, made again if the source has changed. */
export function serverBundle(name: BundledServer): Promise<string> {
  const entry = path.join(ROOT, ENTRIES[name]);
  if (process.env.SERVERS_FROM_SOURCE === '1') return Promise.resolve(entry);
  return bundled({
    name,
    entry,
    root: ROOT,
    dir: path.join(ROOT, 'node_modules/.cache/server-bundles'),
  });
}
