import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, 'eslint.config.js');

/** The messages of one rule for `code` as if it were the file at `file` in the repository. */
async function problems(eslint: ESLint, file: string, code: string, ruleId: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === ruleId);
}

describe('layering (npm run lint)', () => {
  const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: CONFIG });
  const refused = (file: string, specifier: string) =>
    problems(eslint, file, `import '${specifier}';\n`, 'no-restricted-imports');

  it.each([
    [
      'apps/web/src/features/payments/example.ts',
      '../../../../api/src/config.ts',
      /over HTTP only/,
    ],
    ['apps/web/src/app/example.tsx', '../../../../apps/api/src/app.ts', /over HTTP only/],
    ['apps/web/src/main-example.tsx', '@mpesa/api', /over HTTP only/],
    ['apps/web/src/example.ts', '../../simulator/src/index.ts', /never imports the simulator/],
    ['apps/web/src/example.ts', 'daraja-simulator', /never imports the simulator/],
    ['apps/simulator/src/example.ts', '../../api/src/config.ts', /never imports the API/],
    ['apps/simulator/src/routes/example.ts', '@mpesa/api/contract', /never imports the API/],
    ['apps/simulator/src/example.ts', '../../web/src/lib/api-client.ts', /never imports the web/],
    ['apps/web/src/features/auth/example.ts', '../../app/paths', /never the reverse/],
    ['apps/web/src/features/auth/components/example.tsx', '../../../app/router', /in lib\//],
    ['apps/web/src/lib/example.ts', '../app/screens', /never the reverse/],
    ['apps/web/src/i18n/example.ts', '../app/layout', /never the reverse/],
    ['apps/api/src/daraja/example.ts', '../db/stored-lengths.ts', /never imports db\//],
    ['apps/api/src/daraja/stk/example.ts', '../../db/schema.ts', /never imports db\//],
    ['apps/api/src/daraja/example.ts', '../../src/db/schema.ts', /never imports db\//],
    ['packages/shared/src/example.ts', '../../../apps/api/src/errors.ts', /never imports an app/],
    ['packages/openapi-page/src/example.ts', 'daraja-simulator', /never imports an app/],
  ])('refuses %s importing %s', async (file, specifier, message) => {
    const found = await refused(file, specifier);
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toMatch(message);
  });

  it.each([
    ['apps/web/src/features/payments/example.ts', '../api/payments.ts'],
    ['apps/web/src/example.ts', '@mpesa/shared/contract'],
    ['apps/web/src/features/auth/example.ts', '../../lib/paths'],
    ['apps/web/src/app/example.tsx', '../features/auth/components/sign-in-form'],
    ['apps/web/src/app/example.tsx', './layout'],
    ['apps/simulator/src/example.ts', './config.ts'],
    ['apps/simulator/src/example.ts', '@mpesa/openapi-page/routes'],
    ['apps/api/src/daraja/example.ts', '../errors.ts'],
    ['apps/api/src/transactions/example.ts', '../db/schema.ts'],
    ['apps/api/src/test/example.ts', '../../../simulator/src/testing.ts'],
    ['packages/shared/src/example.ts', './phone.ts'],
  ])('lets %s import %s', async (file, specifier) => {
    expect(await refused(file, specifier)).toEqual([]);
  });
});

describe('import circles (npm run lint)', () => {
  let dir: string;
  let eslint: ESLint;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  const circles = async (file: string) => {
    const [result] = await eslint.lintText(fs.readFileSync(path.join(dir, file), 'utf8'), {
      filePath: path.join(dir, file),
    });
    return (result?.messages ?? [])
      .filter((message) => message.ruleId === 'local/no-import-cycle')
      .map((message) => message.message);
  };

  beforeAll(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lint-circles-')));
    eslint = new ESLint({ cwd: dir, overrideConfigFile: CONFIG });
    write('package.json', JSON.stringify({ private: true, workspaces: ['packages/*'] }));
    // a → b → c → a, by relative imports (one of them without its extension, one type-only).
    write('src/a.ts', "import { b } from './b.ts';\nexport const a = () => b;\n");
    write('src/b.ts', "import { c } from './nested/c';\nexport const b = () => c;\n");
    write(
      'src/nested/c.ts',
      "import type { a } from '../a.ts';\nexport const c: typeof a | 1 = 1;\n",
    );
    // d → e, and no way back.
    write('src/d.ts', "import { e } from './e.ts';\nexport const d = e;\n");
    write('src/e.ts', 'export const e = 1;\n');
    // Two workspace packages that import each other by name.
    for (const [name, other] of [
      ['one', 'two'],
      ['two', 'one'],
    ] as const) {
      write(
        `packages/${name}/package.json`,
        JSON.stringify({ name: `@t/${name}`, exports: { '.': './src/index.ts' } }),
      );
      write(`packages/${name}/src/index.ts`, `export * from '@t/${other}';\n`);
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses each import of a circle, naming the whole circle', async () => {
    expect(await circles('src/a.ts')).toEqual([
      `Import circle: ${['src/a.ts', 'src/b.ts', 'src/nested/c.ts', 'src/a.ts'].join(' → ')}`,
    ]);
    expect(await circles('src/b.ts')).toHaveLength(1);
    expect(await circles('src/nested/c.ts')).toHaveLength(1);
  });

  it('lets imports that lead nowhere back through', async () => {
    expect(await circles('src/d.ts')).toEqual([]);
    expect(await circles('src/e.ts')).toEqual([]);
  });

  it('follows the workspace packages by name', async () => {
    expect(await circles('packages/one/src/index.ts')).toEqual([
      'Import circle: packages/one/src/index.ts → packages/two/src/index.ts → packages/one/src/index.ts',
    ]);
  });

  it('finds the circle when the file being linted is not yet saved', async () => {
    const [result] = await eslint.lintText("import { a } from './a.ts';\nexport const f = a;\n", {
      filePath: path.join(dir, 'src/e.ts'),
    });
    expect(result?.messages.map((message) => message.ruleId)).not.toContain(
      'local/no-import-cycle',
    );
    const [closing] = await eslint.lintText("import { d } from './d.ts';\nexport const e = d;\n", {
      filePath: path.join(dir, 'src/e.ts'),
    });
    expect(closing?.messages.map((message) => message.message)).toContain(
      'Import circle: src/e.ts → src/d.ts → src/e.ts',
    );
  });
});
