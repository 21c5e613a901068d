/**
 * The proxy's certificate authority (authority.ts): made once, kept where a restart finds it, able
 * to vouch for Daraja's two hosts only, and a folder that cannot keep it said so in a sentence.
 */
import 'reflect-metadata'; // before @peculiar/x509 (authority.ts)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { NameConstraints, id_ce_nameConstraints } from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CA_DIR, loadSimulatorConfig } from '../config.ts';
import { call, startSimulator } from '../test/harness.ts';
import { runToEnd, startProcess } from '../test/process.ts';
import { SANDBOX, connectRequest, exchange, viaProxy } from '../test/proxy-client.ts';
import { CA_CERTIFICATE_FILE, CA_KEY_FILE } from './authority.ts';
import { proxyBanner } from './tunnel.ts';

const folders: string[] = [];
const tempFolder = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-ca-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

describe('the proxy’s certificate authority', () => {
  it('is kept across restarts, so that a client that trusted it still reaches the simulator', async () => {
    const folder = tempFolder();
    const first = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    const trusted = (await call(`${first.url}/_sim/proxy/ca.pem`)).body as string;
    await first.close();
    expect(fs.readFileSync(path.join(folder, CA_CERTIFICATE_FILE), 'utf8')).toBe(trusted);
    // The key is the user's alone.
    expect(fs.statSync(path.join(folder, CA_KEY_FILE)).mode & 0o777).toBe(0o600);

    // Left readable by others by hand, it is set back to the user's alone at the next start.
    fs.chmodSync(path.join(folder, CA_KEY_FILE), 0o644);
    const second = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    try {
      expect((await call(`${second.url}/_sim/proxy/ca.pem`)).body).toBe(trusted);
      expect(fs.statSync(path.join(folder, CA_KEY_FILE)).mode & 0o777).toBe(0o600);
      const token = `${SANDBOX}/oauth/v1/generate?grant_type=client_credentials`;
      const answer = await viaProxy(second.url, trusted, token, {
        headers: { Authorization: `Basic ${Buffer.from('key:secret').toString('base64')}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.expires_in).toBe('3599');
    } finally {
      await second.close();
    }
  });

  it('is a CA that may vouch for Daraja’s two hosts only', async () => {
    const folder = tempFolder();
    const sim = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    const pem = (await call(`${sim.url}/_sim/proxy/ca.pem`)).body as string;
    await sim.close();
    const certificate = new crypto.X509Certificate(pem);
    expect(certificate.ca).toBe(true);
    expect(certificate.subject).toBe('CN=daraja-simulator local proxy CA\nO=daraja-simulator');
    // Its name constraints: critical, and permitting the two DNS names alone.
    const constraints = new x509.X509Certificate(pem).getExtension(id_ce_nameConstraints);
    expect(constraints?.critical).toBe(true);
    const { permittedSubtrees, excludedSubtrees } = AsnConvert.parse(
      constraints!.value,
      NameConstraints,
    );
    expect(permittedSubtrees?.map((subtree) => subtree.base)).toEqual([
      { dNSName: 'sandbox.safaricom.co.ke' },
      { dNSName: 'api.safaricom.co.ke' },
    ]);
    expect(excludedSubtrees).toBeUndefined();
  });

  it('is kept in SIM_PROXY_CA_DIR, else beside SIM_STATE, else in the user’s folder', () => {
    expect(
      loadSimulatorConfig({ SIM_PROXY_CA_DIR: '/srv/ca', SIM_STATE: '/x/s.json' }).proxyCaDir,
    ).toBe('/srv/ca');
    expect(loadSimulatorConfig({ SIM_STATE: '/x/state.json' }).proxyCaDir).toBe('/x');
    expect(loadSimulatorConfig({}).proxyCaDir).toBe(path.join(os.homedir(), '.daraja-simulator'));
    expect(DEFAULT_CA_DIR).toBe(path.join(os.homedir(), '.daraja-simulator'));
  });

  it('says why a folder cannot keep it, at the control route and to a tunnel', async () => {
    const file = path.join(tempFolder(), 'a-file');
    fs.writeFileSync(file, '');
    const sim = await startSimulator({ SIM_PROXY_CA_DIR: file });
    try {
      const answer = await call(`${sim.url}/_sim/proxy/ca.pem`);
      expect(answer.status).toBe(500);
      expect(answer.body.error).toBe(
        `Cannot make the proxy's authority: SIM_PROXY_CA_DIR (${file}) cannot keep the proxy's certificate authority: it is a file, not a folder. Choose another folder, or turn the proxy off with SIM_PROXY=false.`,
      );
      const tunnel = await exchange(sim.url, connectRequest('sandbox.safaricom.co.ke:443'));
      expect(tunnel).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
      expect(tunnel).toContain(`SIM_PROXY_CA_DIR (${file}) cannot keep`);
    } finally {
      await sim.close();
    }
  });

  it('refuses a key file that is not one, saying how to have a new one made', async () => {
    const folder = tempFolder();
    fs.writeFileSync(path.join(folder, CA_KEY_FILE), 'not a key\n');
    const sim = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    try {
      const answer = await call(`${sim.url}/_sim/proxy/ca.pem`);
      expect(answer.status).toBe(500);
      expect(answer.body.error).toContain(
        `${path.join(folder, CA_KEY_FILE)} does not hold a private key and a certificate; delete ${path.join(folder, CA_KEY_FILE)} to have a new authority made`,
      );
    } finally {
      await sim.close();
    }
  });
});

describe('the proxy at start', () => {
  it('makes the authority before the first request and says how to use it', async () => {
    const folder = tempFolder();
    const running = await startProcess({ SIM_PROXY_CA_DIR: folder, LOG_LEVEL: 'info' });
    try {
      const file = path.join(folder, CA_CERTIFICATE_FILE);
      expect(fs.existsSync(file)).toBe(true);
      expect(running.output()).toContain(JSON.stringify(proxyBanner(running.url, file)));
    } finally {
      await running.kill();
    }
  });

  it('does not start with a folder that cannot keep it', async () => {
    const file = path.join(tempFolder(), 'a-file');
    fs.writeFileSync(file, '');
    const { status, stderr } = await runToEnd([], { SIM_PROXY_CA_DIR: file, SIMULATOR_PORT: '0' });
    expect(status).toBe(1);
    expect(stderr).toContain(
      `Cannot start: SIM_PROXY_CA_DIR (${file}) cannot keep the proxy's certificate authority`,
    );
  });
});
