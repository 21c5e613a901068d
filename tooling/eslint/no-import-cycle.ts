/**
 * `local/no-import-cycle`: refuses an import that closes a circle among the project's own modules
 * (relative imports and the workspace packages). A circle makes the order in which modules run
 * depend on which one is imported first, and says that two modules are really one.
 *
 * `import type` counts too: the code has no circle made only of types, and a type that two modules
 * need belongs in a third that both import.
 */
import path from 'node:path';
import type { Rule } from 'eslint';
import { featureBoundaries } from './feature-boundaries.ts';
import { findRoot, pathBack, resolveImport } from './import-graph.ts';

type SourceNode = Parameters<Rule.RuleListener['ImportDeclaration'] & {}>[0]['source'];

export const noImportCycle: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuse an import that closes a circle among the project’s modules' },
    schema: [],
    messages: { cycle: 'Import circle: {{chain}}' },
  },
  create(context) {
    const file = context.filename;
    if (!path.isAbsolute(file)) return {};
    const root = findRoot(file);
    const shown = (target: string) => path.relative(root ?? context.cwd, target);

    function check(source: SourceNode | null | undefined): void {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveImport(source.value, file, root);
      if (!target) return;
      const back = pathBack(target, file, root);
      if (!back) return;
      const chain = [file, ...back].map(shown).join(' → ');
      context.report({ node: source, messageId: 'cycle', data: { chain } });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source as SourceNode),
    };
  },
};

/** The project's own ESLint rules, as a plugin for eslint.config.js. */
export const localPlugin = {
  meta: { name: 'local' },
  rules: { 'no-import-cycle': noImportCycle, 'feature-boundaries': featureBoundaries },
};
