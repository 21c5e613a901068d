/**
 * The API's and the simulator's server as one JavaScript file each, for the tests that start them
 * as processes (docs/decisions/010-test-servers-from-a-bundle.md). A process started from source
 * loads some 1,180 modules (the API), our own TypeScript among them, and spends about 1.35 s (the
 * API) and 0.8 s (the simulator) of CPU before it answers; from the bundle 0.75 s and 0.5 s. A test
 * run starts about a hundred.
 *
 * The bundle is the source as it is now: each start compares what it was made from (every module
 * of ours Rolldown read, those it then left out included; the package.json files and
 * package-lock.json, which stand for what is under node_modules) with the files, and bundles again
 * when one changed. Each module keeps its own `import.meta.url`, `.dirname` and `.filename`, so
 * what the code reads beside itself (the simulator's public/ and keys/, the reference page's CSS)
 * is read where it always is; `import.meta.main` is true of the entry only. SERVERS_FROM_SOURCE=1
 * starts the sources instead.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';
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
  /** The repository: its package files stand for every module under node_modules. */
  root: string;
  dir: string;
}

type Stamp = [size: number, mtimeMs: number];

/** `<name>.json` beside the bundles: which bundle is current, and what it was made from. */
interface Made {
  root: string;
  file: string;
  /** Each input by its path from the root: its size and time when Rolldown was about to read it. */
  inputs: Record<string, Stamp>;
}

const isOurs = (id: string) => path.isAbsolute(id) && !id.split(path.sep).includes('node_modules');

function stamp(file: string): Stamp | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? [stat.size, stat.mtimeMs] : undefined;
}

/** The package files of the repository and of its workspaces: they say what node_modules holds. */
function packageFiles(root: string): string[] {
  const files = [path.join(root, 'package.json'), path.join(root, 'package-lock.json')];
  const manifest = files[0]!;
  const { workspaces = [] } = fs.existsSync(manifest)
    ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { workspaces?: string[] })
    : {};
  for (const workspace of workspaces)
    for (const found of fs.globSync(path.join(workspace, 'package.json'), { cwd: root }))
      files.push(path.join(root, found));
  return files.filter((file) => fs.existsSync(file));
}

function isCurrent(place: BundlePlace, made: Made): boolean {
  if (made.root !== place.root || !fs.existsSync(path.join(place.dir, made.file))) return false;
  return Object.entries(made.inputs).every(([relative, [size, mtimeMs]]) => {
    const now = stamp(path.join(place.root, relative));
    return now !== undefined && now[0] === size && now[1] === mtimeMs;
  });
}

/**
 * Records each module of ours before Rolldown reads it (a file saved meanwhile then counts as
 * changed), and writes each module's `import.meta` paths into it as strings, as they are at its own
 * place (found in its syntax tree, not its text: a comment or string that names them is left alone).
 */
function sourcePlaces(entry: string, inputs: Made['inputs'], root: string): Plugin {
  return {
    name: 'source-places',
    load(id) {
      const now = isOurs(id) ? stamp(id) : undefined;
      if (now) inputs[path.relative(root, id)] = now;
      return null;
    },
    transform(code, id) {
      if (!path.isAbsolute(id) || !code.includes('import.meta')) return null;
      const values: Record<string, string> = {
        url: JSON.stringify(pathToFileURL(id).href),
        dirname: JSON.stringify(path.dirname(id)),
        filename: JSON.stringify(id),
        main: id === entry ? 'import.meta.main' : 'false',
      };
      const edits: [start: number, end: number, text: string][] = [];
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (node === null || typeof node !== 'object') return;
        const { type, object, property, computed, start, end } = node as Record<string, unknown>;
        if (type === 'MemberExpression' && !computed) {
          const meta = object as { type?: string };
          const name = (property as { name?: string }).name;
          if (meta.type === 'MetaProperty' && name && name in values) {
            edits.push([start as number, end as number, values[name]!]);
            return;
          }
        }
        for (const [key, child] of Object.entries(node)) if (key !== 'parent') visit(child);
      };
      const extension = path.extname(id);
      const lang = /^\.[mc]?ts$/.test(extension) ? 'ts' : extension === '.tsx' ? 'tsx' : 'js';
      visit(parseAst(code, { lang }, id));
      if (edits.length === 0) return null;
      let out = code;
      for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0]))
        out = out.slice(0, start) + text + out.slice(end);
      return out;
    },
  };
}

/** Writes `file` by renaming a file of this process's own onto it: a reader sees all of it or none. */
function writeWhole(file: string, text: string) {
  const temporary = `${file}.${process.pid}-${crypto.randomUUID()}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

async function bundle(place: BundlePlace): Promise<string> {
  const { name, entry, root, dir } = place;
  const inputs: Made['inputs'] = {};
  for (const file of packageFiles(root)) inputs[path.relative(root, file)] = stamp(file)!;
  const { rolldown } = await import('rolldown');
  const build = await rolldown({
    input: entry,
    platform: 'node',
    // As Node strips types: no tsconfig read (so none is an input), and an import only a type is
    // said to be (`import type`) is removed; any other is kept, and its module runs, used or not.
    tsconfig: false,
    transform: { typescript: { onlyRemoveTypeImports: true } },
    plugins: [sourcePlaces(entry, inputs, root)],
    // A warning (an import left unresolved, outside the bundle) is worth seeing.
    logLevel: 'warn',
  });
  const { output } = await build.generate({ format: 'esm', codeSplitting: false });
  await build.close();
  const chunk = output.find((item) => item.type === 'chunk');
  if (!chunk) throw new Error(`Bundling ${entry} made no JavaScript`);
  // Named by what it holds, and put in place whole: a test in another worker that starts it
  // meanwhile finds either the old file or this one, never half of one.
  const hash = crypto.createHash('sha256').update(chunk.code).digest('hex').slice(0, 12);
  const file = `${name}-${hash}.mjs`;
  fs.mkdirSync(dir, { recursive: true });
  writeWhole(path.join(dir, file), chunk.code);
  writeWhole(path.join(dir, `${name}.json`), JSON.stringify({ root, file, inputs } satisfies Made));
  removeUnused(dir, name, file);
  return path.join(dir, file);
}

/**
 * The bundles no start has been given for an hour (each is touched when given). A start reads its
 * file the moment it is given it, and never again: nothing of a bundle is loaded later.
 */
function removeUnused(dir: string, name: string, current: string) {
  for (const other of fs.readdirSync(dir)) {
    if (!other.startsWith(`${name}-`) || !other.endsWith('.mjs') || other === current) continue;
    const stat = fs.statSync(path.join(dir, other), { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > 3_600_000)
      fs.rmSync(path.join(dir, other), { force: true });
  }
}

function readMade(pointer: string): Made | undefined {
  try {
    return JSON.parse(fs.readFileSync(pointer, 'utf8')) as Made;
  } catch {
    return undefined; // none yet, or unreadable: made again
  }
}

const pending = new Map<string, Promise<string>>();

/** The bundle of `place.entry` as its source is now: the one made before, or a new one. */
export async function bundled(place: BundlePlace): Promise<string> {
  const made = readMade(path.join(place.dir, `${place.name}.json`));
  if (made && isCurrent(place, made)) {
    const file = path.join(place.dir, made.file);
    try {
      const now = new Date();
      fs.utimesSync(file, now, now);
      return file;
    } catch {
      // Removed since (another process made a newer one): made again.
    }
  }
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
  const dir = path.join(ROOT, 'node_modules/.cache/server-bundles');
  return bundled({ name, entry, root: ROOT, dir });
}
