import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPlugin } from './no-import-cycle.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, 'eslint.config.js');

/** A repository on disk: the rule follows the imports of files that are not being linted. */
function fixture(prefix: string, files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const all = { 'package.json': JSON.stringify({ private: true, workspaces: [] }), ...files };
  for (const [file, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** The rule's messages for one fixture file, linted as it is on disk. */
async function boundaries(eslint: ESLint, dir: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(fs.readFileSync(path.join(dir, file), 'utf8'), {
    filePath: path.join(dir, file),
  });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'local/feature-boundaries')
    .map((message) => message.message);
}

const imports = (...specifiers: string[]) =>
  `${specifiers.map((specifier) => `import '${specifier}';`).join('\n')}\nexport const x = 1;\n`;

describe('feature boundaries in the API, as eslint.config.js sets them (npm run lint)', () => {
  const src = 'apps/api/src';
  let dir: string;
  let eslint: ESLint;
  const check = (file: string) => boundaries(eslint, dir, `${src}/${file}`);

  beforeAll(() => {
    const tree: Record<string, string> = {
      'app.ts': imports('./features/index.ts', './features/payments/index.ts', './db/schema.ts'),
      'server.ts': imports('./features/refunds/refund.repository.ts'),
      'review-cli.ts': imports('./features/refunds/index.ts'),
      'features/index.ts': imports('./payments/index.ts', './refunds/index.ts'),
      'features/payments/index.ts': imports('./payments.routes.ts'),
      'features/payments/payments.routes.ts': imports(
        './payments.service.ts',
        './parts/payment-row.ts',
        '../../db/schema.ts',
        '../../lib/clock.ts',
        '../history/index.ts',
      ),
      'features/payments/parts/payment-row.ts': imports('../payments.service.ts'),
      'features/payments/payments.service.ts': imports('../refunds/refund.repository.ts'),
      'features/payments/fixtures-user.ts': imports('../../test/fixtures.ts'),
      'features/refunds/index.ts': imports('./refund.repository.ts'),
      'features/refunds/refund.repository.ts': imports('../../db/schema.ts'),
      'features/history/index.ts': imports('../../db/schema.ts'),
      // A test of history's that uses payments: not an import of history's own, so no circle.
      'features/history/history.test.ts': imports(
        '../payments/index.ts',
        '../payments/payments.service.ts',
      ),
      // orders → billing → ledger → orders, each step by a different file.
      'features/orders/index.ts': imports('../billing/index.ts'),
      'features/billing/index.ts': imports('./invoice.ts'),
      'features/billing/invoice.ts': imports('../ledger/index.ts'),
      'features/ledger/index.ts': imports('./entries.ts'),
      'features/ledger/entries.ts': imports('../orders/index.ts'),
      'db/schema.ts': imports(),
      'db/payments-view.ts': imports('./schema.ts', '../features/payments/index.ts'),
      'lib/clock.ts': imports('../test/fixtures.ts'),
      'test/fixtures.ts': imports('../features/payments/payments.service.ts'),
    };
    dir = fixture(
      'lint-features-',
      Object.fromEntries(Object.entries(tree).map(([file, text]) => [`${src}/${file}`, text])),
    );
    eslint = new ESLint({ cwd: dir, overrideConfigFile: CONFIG });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a deep import of another feature, from a feature or from the app', async () => {
    expect(await check('features/payments/payments.service.ts')).toEqual([
      'features/refunds/refund.repository.ts is inside the feature refunds: from outside, a feature is entered through its index.ts.',
    ]);
    expect(await check('server.ts')).toHaveLength(1);
  });

  it('lets a feature import its own files, shared layers and another feature’s index.ts', async () => {
    expect(await check('features/payments/payments.routes.ts')).toEqual([]);
    expect(await check('features/payments/parts/payment-row.ts')).toEqual([]);
    expect(await check('features/refunds/refund.repository.ts')).toEqual([]);
  });

  it('lets the composition files import the features’ index files', async () => {
    expect(await check('app.ts')).toEqual([]);
    expect(await check('review-cli.ts')).toEqual([]);
    expect(await check('features/index.ts')).toEqual([]);
  });

  it('refuses a shared layer importing a feature', async () => {
    expect(await check('db/payments-view.ts')).toEqual([
      'db/payments-view.ts is a shared layer, below the features: it never imports one (features/payments/index.ts). What both need belongs in the shared layer; the app joins them.',
    ]);
  });

  it('refuses an import that closes a circle of features, naming the imports that close it', async () => {
    expect(await check('features/orders/index.ts')).toEqual([
      'Feature circle: orders → billing → ledger → orders (billing/invoice.ts imports ledger/index.ts; ledger/entries.ts imports orders/index.ts). Features import each other one way: what both need belongs in a shared layer, or in one of them.',
    ]);
    expect(await check('features/billing/invoice.ts')).toHaveLength(1);
    expect(await check('features/ledger/entries.ts')).toHaveLength(1);
  });

  it('refuses production code importing the tests’ helpers', async () => {
    const refusal = 'Production code never imports the tests’ helpers (test/fixtures.ts).';
    expect(await check('lib/clock.ts')).toEqual([refusal]);
    expect(await check('features/payments/fixtures-user.ts')).toEqual([refusal]);
  });

  it('leaves the tests and their helpers free', async () => {
    expect(await check('features/history/history.test.ts')).toEqual([]);
    expect(await check('test/fixtures.ts')).toEqual([]);
  });
});

describe('feature boundaries, configured elsewhere', () => {
  let dir: string;
  let eslint: ESLint;

  beforeAll(() => {
    dir = fixture('lint-modules-', {
      'server/src/modules/a/index.ts': imports('./inner.ts'),
      'server/src/modules/a/inner.ts': imports('../b/inner.ts', '../../support/given.ts'),
      'server/src/modules/a/inner.test.ts': imports('../b/inner.ts'),
      'server/src/modules/b/index.ts': imports('./inner.ts'),
      'server/src/modules/b/inner.ts': imports(),
      'server/src/features/c/x.ts': imports('../d/y.ts'),
      'server/src/features/d/y.ts': imports(),
      'server/src/main.ts': imports('./modules/a/index.ts'),
      'server/src/support/given.ts': imports(),
    });
    eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      overrideConfig: {
        files: ['**/*.ts'],
        plugins: { local: localPlugin },
        rules: {
          'local/feature-boundaries': [
            'error',
            { root: 'server/src', features: 'modules', composition: ['main.ts'], tests: 'support' },
          ],
        },
      },
    });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes its folders and composition files from its options', async () => {
    expect(await boundaries(eslint, dir, 'server/src/modules/a/inner.ts')).toEqual([
      'modules/b/inner.ts is inside the feature b: from outside, a feature is entered through its index.ts.',
      'Production code never imports the tests’ helpers (support/given.ts).',
    ]);
    expect(await boundaries(eslint, dir, 'server/src/main.ts')).toEqual([]);
    expect(await boundaries(eslint, dir, 'server/src/modules/a/inner.test.ts')).toEqual([]);
    // features/ is only a shared layer's name here.
    expect(await boundaries(eslint, dir, 'server/src/features/c/x.ts')).toEqual([]);
  });
});
