/**
 * The simulator as a package of its own (daraja-simulator): what it needs from npm, and its front
 * page (README.md), which must agree with the code. The packed package itself is tried by
 * scripts/simulator-package-check.ts.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { pathToFileURL } from 'node:url';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSimulatorIfNeeded } from '../../../scripts/lib.ts';
import { buildSimulator, type Simulator } from './app.ts';
import { FORCED_NUMBERS } from './catalogue.ts';
import { SETTING_FLAGS } from './cli.ts';
import { loadSimulatorConfig } from './config.ts';
import type { CredentialKey as SourceKey } from './operations/initiators/credential.ts';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
const ROOT = path.resolve(PACKAGE_DIR, '../..');
const readme = fs.readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  name: string;
  private?: boolean;
  engines: { node: string };
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};

/** The rows of the README's tables: their cells, trimmed. */
const rows = readme
  .split('\n')
  .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
  .map((line) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim()),
  );

/** Every file the package runs: the sources, without their tests. */
function shippedSources(dir = import.meta.dirname): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : shippedSources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

interface Installed {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
}

/** A package as npm installed it for `from`: in the nearest node_modules above it that has it. */
function installed(name: string, from: string): { dir: string; manifest: Installed } {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) {
      const read = fs.readFileSync(path.join(candidate, 'package.json'), 'utf8');
      return { dir: candidate, manifest: JSON.parse(read) as Installed };
    }
    if (dir === path.dirname(dir)) throw new Error(`${name} is not installed for ${from}`);
  }
}

/** Every package the simulator runs with, each once: its dependencies and theirs. */
function runtimePackages(): Installed[] {
  const seen = new Map<string, Installed>();
  const visit = (names: string[], from: string) => {
    for (const name of names) {
      const { dir, manifest: found } = installed(name, from);
      if (seen.has(dir)) continue;
      seen.set(dir, found);
      visit(Object.keys(found.dependencies ?? {}), dir);
    }
  };
  visit(Object.keys(manifest.dependencies), PACKAGE_DIR);
  return [...seen.values()];
}

function workspacePackageNames(): Set<string> {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  const names = new Set<string>();
  for (const pattern of root.workspaces) {
    const dirs = pattern.endsWith('/*')
      ? fs
          .readdirSync(path.join(ROOT, pattern.slice(0, -2)))
          .map((dir) => path.join(pattern.slice(0, -2), dir))
      : [pattern];
    for (const dir of dirs) {
      const file = path.join(ROOT, dir, 'package.json');
      if (fs.existsSync(file))
        names.add((JSON.parse(fs.readFileSync(file, 'utf8')) as { name: string }).name);
    }
  }
  return names;
}

describe('the package', () => {
  it('runs as daraja-simulator, from the compiled server.ts', () => {
    expect(manifest.name).toBe('daraja-simulator');
    expect(manifest.bin).toEqual({ 'daraja-simulator': 'dist/server.js' });
    expect(manifest.files).toEqual(['dist']);
  });

  it('can be published', () => {
    expect(manifest.private).toBeUndefined();
  });

  // The floor itself, 22.12, was found by running the packed package: @fastify/static require()s
  // content-disposition, an ES module only, which Node 22 does without a flag from 22.12 on (22.4
  // stops at start-up with ERR_REQUIRE_ESM). Node 20.19 would run it too, but these dependencies'
  // engines say 22 or newer.
  it('asks for a Node that each of its dependencies accepts, by their own engines', () => {
    const floor = semver.minVersion(manifest.engines.node)!;
    const refusing = runtimePackages()
      .filter(({ engines }) => engines?.node && !semver.satisfies(floor, engines.node))
      .map(({ name, version, engines }) => `${name}@${version} wants Node ${engines!.node}`);
    expect(refusing).toEqual([]);
    expect(runtimePackages().map(({ name }) => name)).toContain('content-disposition');
  });

  it('lists every package its code imports among its dependencies, and none only this repository has', () => {
    const builtins = new Set(builtinModules);
    const workspaces = workspacePackageNames();
    const problems: string[] = [];
    for (const file of shippedSources()) {
      const source = fs.readFileSync(file, 'utf8');
      // Static imports only: a dynamic import() is optional, and the code copes with its absence
      // (the packed simulator runs without it in scripts/simulator-package-check.ts).
      for (const [, specifier] of source.matchAll(/(?:from|^import)\s+'([^'.][^']*)'/gm)) {
        if (specifier!.startsWith('node:') || builtins.has(specifier!)) continue;
        const name = specifier!
          .split('/')
          .slice(0, specifier!.startsWith('@') ? 2 : 1)
          .join('/');
        const where = path.relative(PACKAGE_DIR, file);
        if (workspaces.has(name)) {
          problems.push(
            `${where} imports ${name}, a package of this repository that is not on npm: once packed, the simulator could not install it`,
          );
        } else if (!(name in manifest.dependencies)) {
          problems.push(`${where} imports ${name}, which package.json's dependencies lack`);
        }
      }
    }
    for (const name of Object.keys(manifest.dependencies)) {
      if (workspaces.has(name)) {
        problems.push(`${name} is a dependency but a package of this repository, not on npm`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('builds dist/ when packed', () => {
    expect(manifest.scripts.prepack).toBe('npm run build');
  });

  it('holds the SecurityCredential key pair, where its built code finds it', async () => {
    // The build `npm pack` would run as prepack, made once per change (the package check packs
    // it too), and what the tarball would hold.
    await buildSimulatorIfNeeded();
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: PACKAGE_DIR,
        encoding: 'utf8',
      }),
    ) as { files: { path: string }[] }[];
    const files = packed!.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/keys/security-credential-certificate.pem',
        'dist/keys/security-credential-key.pem',
      ]),
    );
    const built = path.join(PACKAGE_DIR, 'dist/operations/initiators/credential.js');
    const { CredentialKey } = (await import(pathToFileURL(built).href)) as {
      CredentialKey: typeof SourceKey;
    };
    const key = new CredentialKey();
    const credential = crypto
      .publicEncrypt(
        { key: key.certificate, padding: crypto.constants.RSA_PKCS1_PADDING },
        Buffer.from('Safaricom999!*!'),
      )
      .toString('base64');
    expect(key.read(credential)).toEqual({ kind: 'ours', password: 'Safaricom999!*!' });
  }, 120_000);
});

describe('its README', () => {
  it.each([
    ['its README', readme],
    ['the repository’s README', fs.readFileSync(path.join(PACKAGE_DIR, '../../README.md'), 'utf8')],
  ])('%s lists exactly the numbers the simulator forces', (_readme, markdown) => {
    const documented = Object.fromEntries(
      [...markdown.matchAll(/^\|\s*(07\d{8})\s*\|\s*(.+?)\s*\|$/gm)].map(([, number, outcome]) => [
        `254${number!.slice(1)}`,
        outcome!,
      ]),
    );
    expect(Object.keys(documented).sort()).toEqual(Object.keys(FORCED_NUMBERS).sort());
    for (const [msisdn, forced] of Object.entries(FORCED_NUMBERS)) {
      const outcome = documented[msisdn]!;
      if (forced.kind === 'result') expect(outcome).toContain(`(${forced.resultCode})`);
      if (forced.kind === 'refuse') expect(outcome).toContain('500.003.02');
      if (forced.kind === 'paid-no-callback') expect(outcome).toContain('callback never arrives');
    }
  });

  it('gives every setting a row with its variable and its flag, and no other', () => {
    const settingRows = rows.filter(([variable]) => /^`[A-Z0-9_]+`$/.test(variable!));
    expect(settingRows.map(([variable]) => variable).sort()).toEqual(
      SETTING_FLAGS.map(({ name }) => `\`${name}\``).sort(),
    );
    for (const [variable, flag] of settingRows) {
      const setting = SETTING_FLAGS.find(({ name }) => `\`${name}\`` === variable)!;
      expect(flag, variable).toBe(`\`--${setting.flag}\``);
    }
  });

  describe('control API', () => {
    let simulator: Simulator;
    beforeAll(async () => {
      simulator = await buildSimulator(loadSimulatorConfig({}), { logger: false });
      await simulator.app.ready();
    });
    afterAll(() => simulator.app.close());

    /** `METHOD /_sim/path` of each route, parameters written `:`, from Fastify's own route tree. */
    function controlRoutes(): string[] {
      const routes: string[] = [];
      const stack: string[] = [];
      for (const line of simulator.app.printRoutes({ commonPrefix: false }).split('\n')) {
        const found = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
        if (!found) continue;
        const depth = found[1]!.length / 4;
        stack.length = depth;
        stack.push(found[2]!);
        const url = stack.join('');
        // The OpenAPI document's page is served only where this repository's page renderer is
        // (openapi.ts), not by the package.
        if (!url.startsWith('/_sim/') || url.startsWith('/_sim/docs')) continue;
        for (const method of found[3]!.split(', ')) {
          if (method !== 'HEAD') routes.push(`${method} ${url.replace(/:[^/]+/g, ':')}`);
        }
      }
      return routes.sort();
    }

    it('documents every /_sim/ route, and only those', () => {
      const documented = rows
        .map(([request]) => /^`(GET|POST|PUT|DELETE|PATCH) (\/_sim\/[^`?\s]*)/.exec(request ?? ''))
        .filter((found) => found !== null)
        .map(([, method, url]) => `${method} ${url!.replace(/:[^/]+/g, ':')}`)
        .sort();
      expect(controlRoutes().length).toBeGreaterThan(10);
      expect(documented).toEqual(controlRoutes());
    });
  });
});
