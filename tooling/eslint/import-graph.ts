/**
 * The project's own import graph, as the import-circle rule reads it: every file's relative imports
 * and imports of the workspace packages (`@mpesa/shared`, `daraja-simulator` …), resolved to files.
 * Other packages (node_modules, `node:` modules) are not followed: a circle through them is theirs.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.jsx'];

interface Workspace {
  dir: string;
  exports: Map<string, string>;
}

/** A file's imports, read again only when the file changes on disk. */
const specifierCache = new Map<string, { mtimeMs: number; size: number; specifiers: string[] }>();
const workspaceCache = new Map<string, Map<string, Workspace>>();

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The nearest folder above `file` whose package.json declares workspaces: the repository's root. */
export function findRoot(file: string): string | undefined {
  let dir = path.dirname(file);
  for (;;) {
    if (Array.isArray(readJson(path.join(dir, 'package.json'))?.workspaces)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `"./dist/x.js"` or `{ "types": …, "default": "./dist/x.js" }`: the file an export names. */
function exportTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const conditions = value as Record<string, unknown>;
    return exportTarget(conditions.import ?? conditions.default);
  }
  return undefined;
}

function workspaceDirs(root: string, patterns: string[]): string[] {
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [path.join(root, pattern)];
    const parent = path.join(root, pattern.slice(0, -2));
    if (!fs.existsSync(parent)) return [];
    return fs.readdirSync(parent).map((name) => path.join(parent, name));
  });
}

/** The workspace packages by name, each with its exports (`"."`, `"./contract"` …) as files. */
function workspaces(root: string): Map<string, Workspace> {
  const cached = workspaceCache.get(root);
  if (cached) return cached;
  const patterns = (readJson(path.join(root, 'package.json'))?.workspaces ?? []) as string[];
  const found = new Map<string, Workspace>();
  for (const dir of workspaceDirs(root, patterns)) {
    const manifest = readJson(path.join(dir, 'package.json'));
    if (typeof manifest?.name !== 'string') continue;
    const exports = new Map<string, string>();
    const declared = manifest.exports;
    const entries =
      typeof declared === 'string' ? [['.', declared] as const] : Object.entries(declared ?? {});
    for (const [subpath, value] of entries) {
      const target = exportTarget(value);
      if (target) exports.set(subpath, path.join(dir, target));
    }
    found.set(manifest.name, { dir, exports });
  }
  workspaceCache.set(root, found);
  return found;
}

/** `base`, or `base` with one of the source extensions, or its index file. */
function resolveFile(base: string): string | undefined {
  if (isFile(base)) return base;
  // A package built to dist/ is read from its sources (src/x.ts for dist/x.js).
  const source = base.replace(/([/\\])dist([/\\].*)\.js$/, '$1src$2.ts');
  if (source !== base && isFile(source)) return source;
  if (base.endsWith('.js') && isFile(`${base.slice(0, -3)}.ts`)) return `${base.slice(0, -3)}.ts`;
  for (const extension of EXTENSIONS) if (isFile(base + extension)) return base + extension;
  for (const extension of EXTENSIONS) {
    const index = path.join(base, `index${extension}`);
    if (isFile(index)) return index;
  }
  return undefined;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * The project file an import names, or undefined for a package outside the project, a missing
 * file or a file of another kind (a stylesheet, JSON).
 */
export function resolveImport(
  specifier: string,
  fromFile: string,
  root: string | undefined,
): string | undefined {
  let target: string | undefined;
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) {
    target = resolveFile(path.resolve(path.dirname(fromFile), specifier));
  } else if (root) {
    const name = packageName(specifier);
    const workspace = workspaces(root).get(name);
    if (!workspace) return undefined;
    const subpath = `.${specifier.slice(name.length)}`;
    const exported = workspace.exports.get(subpath);
    target = exported ? resolveFile(exported) : undefined;
  }
  if (!target || target.split(path.sep).includes('node_modules')) return undefined;
  return EXTENSIONS.includes(path.extname(target)) ? target : undefined;
}

/** Every module a file imports, statically or with `import()`, including `import type`. */
function specifiersOf(file: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const cached = specifierCache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) {
    return cached.specifiers;
  }
  const source = fs.readFileSync(file, 'utf8');
  const specifiers = ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
  specifierCache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, specifiers });
  return specifiers;
}

/** The project files that `file`, as it is on disk, imports. */
export function importsOf(file: string, root: string | undefined): string[] {
  const targets = new Set<string>();
  for (const specifier of specifiersOf(file)) {
    const target = resolveImport(specifier, file, root);
    if (target) targets.add(target);
  }
  return [...targets];
}

/**
 * The shortest chain of imports from `start` back to `goal` (both included), or undefined when
 * `start` does not lead to `goal`. `goal` is the file being linted, whose own imports come from its
 * text, not from disk.
 */
export function pathBack(
  start: string,
  goal: string,
  root: string | undefined,
): string[] | undefined {
  const cameFrom = new Map<string, string | undefined>([[start, undefined]]);
  const queue = [start];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (next === goal) {
      const chain: string[] = [];
      for (let at: string | undefined = next; at !== undefined; at = cameFrom.get(at)) {
        chain.unshift(at);
      }
      return chain;
    }
    for (const target of importsOf(next, root)) {
      if (!cameFrom.has(target)) {
        cameFrom.set(target, next);
        queue.push(target);
      }
    }
  }
  return undefined;
}
