/**
 * `local/feature-boundaries`: keeps a source folder made of feature folders
 * (`<root>/<features>/<name>/`) and the shared layers below them (every other folder of `<root>`).
 *
 * 1. A feature is entered through its `index.ts`: from outside a feature, an import of any other
 *    of its files is refused. Inside one feature, imports are free.
 * 2. A shared layer never imports a feature: only the composition files (the `composition`
 *    option: the app, the server, the command-line tools, the features' list) import them.
 * 3. Features import each other one way: an import of another feature is refused when that
 *    feature leads back, by its own files' imports, to the importing one (a circle of folders,
 *    which the file-level `local/no-import-cycle` does not see when the files differ).
 * 4. Production code never imports the tests' helpers (`<root>/<tests>/`).
 *
 * Test files (`*.test.ts`, or under a folder named `test`) are not checked, and their imports are
 * not part of the features' graph: a test may reach into any feature. Imports are resolved as
 * `local/no-import-cycle` resolves them (import-graph.ts); an import that names no file of the
 * project is not checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Rule } from 'eslint';
import { findRoot, importsOf, resolveImport } from './import-graph.ts';

type SourceNode = Parameters<Rule.RuleListener['ImportDeclaration'] & {}>[0]['source'];

export interface FeatureBoundariesOptions {
  /** The source folder, from the repository's root: `apps/api/src`. */
  root: string;
  /** The folder of the features, inside `root`; `features` if not given. */
  features?: string;
  /** The files, inside `root`, that may import a feature's index.ts: `app.ts`, `*-cli.ts` … */
  composition?: string[];
  /** The folder of the tests' helpers, inside `root`; `test` if not given. */
  tests?: string;
}

const INDEX = /^index\.[cm]?[jt]sx?$/;

/** Where `file` is inside `dir`, with `/` between folders, or undefined when it is not inside. */
function inside(dir: string, file: string): string | undefined {
  const relative = path.relative(dir, file);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** `*` stands for any part of one name, `**` for any number of folders. */
function globRegex(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const pattern = escaped.replace(/\*\*\/|\*\*|\*/g, (star) =>
    star === '**/' ? '(?:[^/]+/)*' : star === '**' ? '.*' : '[^/]*',
  );
  return new RegExp(`^${pattern}$`);
}

function isTest(relative: string): boolean {
  return (
    /\.test\.[cm]?[jt]sx?$/.test(relative) || relative.split('/').slice(0, -1).includes('test')
  );
}

/** The feature a file belongs to (the first folder inside the features' folder), if any. */
function featureOf(featuresDir: string, file: string): string | undefined {
  const parts = inside(featuresDir, file)?.split('/');
  return parts && parts.length > 1 ? parts[0] : undefined;
}

function filesUnder(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

interface Edge {
  /** A production file of the feature … */
  from: string;
  /** … importing a file of another feature. */
  to: string;
}

/** For each other feature that `feature`'s production files import, the first such import. */
function featureImports(
  featuresDir: string,
  feature: string,
  root: string | undefined,
): Map<string, Edge> {
  const found = new Map<string, Edge>();
  for (const from of filesUnder(path.join(featuresDir, feature))) {
    if (isTest(inside(featuresDir, from) ?? '')) continue;
    for (const to of importsOf(from, root)) {
      const other = featureOf(featuresDir, to);
      if (other && other !== feature && !found.has(other)) found.set(other, { from, to });
    }
  }
  return found;
}

/** The shortest chain of features from `start` back to `goal`, each step with the import making it. */
function featurePathBack(
  featuresDir: string,
  start: string,
  goal: string,
  root: string | undefined,
): Edge[] | undefined {
  const cameFrom = new Map<string, { feature: string; edge: Edge } | undefined>([
    [start, undefined],
  ]);
  const queue = [start];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (next === goal) {
      const edges: Edge[] = [];
      for (let step = cameFrom.get(next); step; step = cameFrom.get(step.feature)) {
        edges.unshift(step.edge);
      }
      return edges;
    }
    for (const [other, edge] of featureImports(featuresDir, next, root)) {
      if (!cameFrom.has(other)) {
        cameFrom.set(other, { feature: next, edge });
        queue.push(other);
      }
    }
  }
  return undefined;
}

export const featureBoundaries: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep feature folders apart and above the shared layers' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          features: { type: 'string' },
          composition: { type: 'array', items: { type: 'string' } },
          tests: { type: 'string' },
        },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      deep: '{{target}} is inside the feature {{feature}}: from outside, a feature is entered through its index.ts.',
      shared:
        '{{file}} is a shared layer, below the features: it never imports one ({{target}}). What both need belongs in the shared layer; the app joins them.',
      circle:
        'Feature circle: {{chain}} ({{evidence}}). Features import each other one way: what both need belongs in a shared layer, or in one of them.',
      tests: 'Production code never imports the tests’ helpers ({{target}}).',
    },
  },
  create(context) {
    const file = context.filename;
    const options = context.options[0] as FeatureBoundariesOptions | undefined;
    if (!options || !path.isAbsolute(file)) return {};
    const project = findRoot(file);
    const sourceDir = path.resolve(project ?? context.cwd, options.root);
    const featuresDir = path.join(sourceDir, options.features ?? 'features');
    const testsDir = path.join(sourceDir, options.tests ?? 'test');
    const relative = inside(sourceDir, file);
    if (relative === undefined || isTest(relative)) return {};
    const composition = (options.composition ?? []).map(globRegex);
    const isComposition = composition.some((glob) => glob.test(relative));
    const ownFeature = featureOf(featuresDir, file);
    const shown = (target: string) => inside(sourceDir, target) ?? target;
    const featureShown = (target: string) => inside(featuresDir, target) ?? target;

    function check(source: SourceNode | null | undefined): void {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveImport(source.value, file, project);
      if (!target) return;
      if (inside(testsDir, target) !== undefined) {
        context.report({ node: source, messageId: 'tests', data: { target: shown(target) } });
        return;
      }
      if (inside(featuresDir, target) === undefined) return;
      const feature = featureOf(featuresDir, target);
      if (ownFeature === undefined && !isComposition) {
        const data = { file: relative, target: shown(target) };
        context.report({ node: source, messageId: 'shared', data });
        return;
      }
      if (feature === undefined || feature === ownFeature) return;
      if (
        path.dirname(target) !== path.join(featuresDir, feature) ||
        !INDEX.test(path.basename(target))
      ) {
        context.report({
          node: source,
          messageId: 'deep',
          data: { target: shown(target), feature },
        });
        return;
      }
      if (ownFeature === undefined) return;
      const back = featurePathBack(featuresDir, feature, ownFeature, project);
      if (!back) return;
      const chain = [ownFeature, feature, ...back.map((edge) => featureOf(featuresDir, edge.to))];
      const evidence = back
        .map((edge) => `${featureShown(edge.from)} imports ${featureShown(edge.to)}`)
        .join('; ');
      context.report({
        node: source,
        messageId: 'circle',
        data: { chain: chain.join(' → '), evidence },
      });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source as SourceNode),
    };
  },
};
