/**
 * `npm start` under a supervisor: when the API stops on its own (here killed with SIGKILL), the
 * process group that `npm start` runs stops everything and exits non-zero, so that systemd or a
 * container's restart policy starts it again (docs/deployment.md). The group is scripts/processes.ts,
 * which start.ts uses; the web build that start.ts does first is left out.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './test/ports.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Runs the API in a ProcessGroup as start.ts does, and prints the API's pid once it answers. */
const GROUP = `
import { ProcessGroup } from ${JSON.stringify(path.join(ROOT, 'scripts/processes.ts'))};
import { API_NODE_FLAGS } from ${JSON.stringify(path.join(ROOT, 'apps/api/src/node-flags.ts'))};
import { waitForHttp } from ${JSON.stringify(path.join(ROOT, 'scripts/lib.ts'))};
const group = new ProcessGroup();
const api = group.start('The API', 'apps/api/src/server.ts', API_NODE_FLAGS, { env: process.env });
await waitForHttp('http://127.0.0.1:' + process.env.PORT + '/api/health', 20000, api);
console.log('api pid ' + api.pid);
`;

describe('npm start', () => {
  let dataDir: string | undefined;
  afterEach(() => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits non-zero when the API stops on its own, saying which stopped', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-start-'));
    const child = spawn(process.execPath, ['--input-type=module', '-e', GROUP], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        WEB_DIST_DIR: '/nonexistent-web-dist',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const pid = new Promise<number>((resolve) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /api pid (\d+)/.exec(output);
        if (found) resolve(Number(found[1]));
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    process.kill(await pid, 'SIGKILL');
    expect(await exited).toBe(1);
    expect(output).toContain('The API stopped (SIGKILL); stopping everything.');
  });
});

describe('the API at start-up', () => {
  it('says in one line that a DATA_DIR it cannot make cannot be used, and exits 1', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'apps/api/src/server.ts')], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
        PORT: String(await freePort()),
        DATA_DIR: '/dev/null/data',
        WEB_DIST_DIR: '/nonexistent-web-dist',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
    expect(output.trim().split('\n')).toEqual([
      expect.stringMatching(/^DATA_DIR \/dev\/null\/data cannot be used: ENOTDIR/),
    ]);
  });
});
