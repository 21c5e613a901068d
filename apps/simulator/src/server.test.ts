/**
 * The simulator as its own process (server.ts, bundled as test/process.ts starts it), over real
 * sockets: where it listens, what it warns about, and who gets the control API.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runToEnd, startProcess, type SimulatorProcess } from './test/process.ts';

const BASIC = `Basic ${Buffer.from('key:secret').toString('base64')}`;

/** This machine's addresses outside the loopback network, if it has any. */
const LAN_ADDRESSES = Object.values(os.networkInterfaces())
  .flat()
  .filter((info) => info !== undefined && info.family === 'IPv4' && !info.internal)
  .map((info) => info!.address);
/**
 * Addresses a server bound to 0.0.0.0 answers on and one bound to 127.0.0.1 does not. On Linux the
 * whole of 127.0.0.0/8 is this machine, so 127.0.0.2 is one even without a network.
 */
const OTHER_ADDRESSES = [...(process.platform === 'linux' ? ['127.0.0.2'] : []), ...LAN_ADDRESSES];

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

let running: SimulatorProcess | undefined;
afterEach(async () => {
  await running?.kill();
  running = undefined;
});

/** Runs server.ts with this environment (and none of the caller's HOST or SIM_* settings). */
async function startServer(env: Record<string, string>) {
  running = await startProcess(env);
  return { port: Number(new URL(running.url).port), output: running.output };
}

describe('where the simulator listens', () => {
  it("listens on 127.0.0.1 only when started with the app's HOST=0.0.0.0", async () => {
    expect(OTHER_ADDRESSES.length).toBeGreaterThan(0);
    const { port, output } = await startServer({ HOST: '0.0.0.0' });
    expect(await canConnect('127.0.0.1', port)).toBe(true);
    for (const address of OTHER_ADDRESSES) {
      expect(await canConnect(address, port), address).toBe(false);
    }
    expect(output()).not.toContain('reachable from other machines');
  });

  it('listens on SIM_HOST, and warns at start-up about what other machines reach', async () => {
    const { port, output } = await startServer({ SIM_HOST: '0.0.0.0' });
    for (const address of OTHER_ADDRESSES) {
      expect(await canConnect(address, port), address).toBe(true);
    }
    const warnings = output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([
      "SIM_HOST=0.0.0.0: Daraja's endpoints (OAuth, STK push, STK query) are reachable from other machines; the control API (/_sim/) and the virtual phone answer only this machine.",
    ]);
  });

  // Needs an address outside 127.0.0.0/8 to connect from; remote-access.test.ts covers the same
  // rule on every machine with Fastify inject.
  it.runIf(LAN_ADDRESSES.length > 0)(
    'answers Daraja calls from another address but refuses it the control API and the page',
    async () => {
      const { port } = await startServer({ SIM_HOST: '0.0.0.0' });
      const base = `http://${LAN_ADDRESSES[0]}:${port}`;
      const oauth = await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, {
        headers: { Authorization: BASIC },
      });
      expect(oauth.status).toBe(200);
      for (const url of ['/_sim/info', '/_sim/events', '/']) {
        const refused = await fetch(`${base}${url}`);
        expect(refused.status, url).toBe(403);
        expect(await refused.json()).toEqual({ error: expect.stringContaining('this machine') });
      }
    },
  );
});

describe('npm start', () => {
  it('refuses a SIM_HOST that leaves the simulator off 127.0.0.1, where the app looks for it', async () => {
    const start = path.resolve(import.meta.dirname, '../../../scripts/start.ts');
    const child = spawn(process.execPath, [start], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
        SIM_HOST: '10.1.2.3',
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('SIM_HOST=10.1.2.3 leaves the simulator off 127.0.0.1');
  });
});

describe('a start that cannot listen', () => {
  it('says in one line that SIM_HOST is not an address of this machine, and exits 1', async () => {
    // 192.0.2.1 is for documentation (RFC 5737): no machine has it, and binding to it sends nothing.
    const { status, stdout, stderr } = await runToEnd(['--host', '192.0.2.1', '--port', '0']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      "SIM_HOST 192.0.2.1 is not an address of this machine (daraja-simulator --host): use 127.0.0.1, 0.0.0.0 or one of this machine's addresses.",
    );
  });

  it('says the port is taken, and lets go of its SIM_STATE file', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-listen-'));
    try {
      const state = path.join(dir, 'state.json');
      const { status, stderr } = await runToEnd(['--port', String(port), '--state', state]);
      expect(status).toBe(1);
      expect(stderr.trim()).toBe(
        `Port ${port} on 127.0.0.1 is already in use: stop what uses it, or choose another with SIMULATOR_PORT (daraja-simulator --port).`,
      );
      expect(fs.readdirSync(dir)).toEqual(['state.json']);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
