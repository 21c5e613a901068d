/**
 * The proxy mode as an SDK that hard-codes Safaricom's hosts meets it: HTTPS_PROXY pointing at the
 * simulator and its authority trusted, and nothing else changed. Everything on 127.0.0.1: the
 * simulator answers for Safaricom's hosts itself, and nothing goes to them.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  pushBody,
  startReceiver,
  startSimulator,
  type Harness,
  type Receiver,
} from '../test/harness.ts';
import { PASSWORD, credentialFor } from '../test/initiators.ts';
import { PRODUCTION, SANDBOX, connectRequest, exchange, viaProxy } from '../test/proxy-client.ts';
import { PROXY_OFF, notADarajaHost, notThroughTheProxyMessage } from './forward.ts';

const basic = `Basic ${Buffer.from('key:secret').toString('base64')}`;
const TOKEN_PATH = '/oauth/v1/generate?grant_type=client_credentials';

/** An SDK's code as it is: Node's fetch and Safaricom's sandbox, written in. */
const SDK = `
const daraja = 'https://sandbox.safaricom.co.ke';
const auth = { Authorization: 'Basic ' + Buffer.from('key:secret').toString('base64') };
const token = await (await fetch(daraja + '${TOKEN_PATH}', { headers: auth })).json();
const push = await fetch(daraja + '/mpesa/stkpush/v1/processrequest', {
  method: 'POST',
  headers: { Authorization: 'Bearer ' + token.access_token, 'Content-Type': 'application/json' },
  body: process.env.PUSH,
});
console.log(JSON.stringify({ token, status: push.status, push: await push.json() }));
`;

function runSdk(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SDK], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 15_000,
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

describe('the proxy mode', () => {
  let sim: Harness;
  let receiver: Receiver;
  let folder: string;
  let ca: string;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-proxy-'));
    sim = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    receiver = await startReceiver();
    ca = (await call(`${sim.url}/_sim/proxy/ca.pem`)).body;
  });
  afterAll(async () => {
    await sim?.close();
    await receiver?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('serves an SDK hard-coded to sandbox.safaricom.co.ke, with Node’s fetch as it is', async () => {
    const { code, out } = await runSdk({
      HTTPS_PROXY: sim.url,
      NODE_USE_ENV_PROXY: '1',
      NODE_EXTRA_CA_CERTS: path.join(folder, 'daraja-simulator-proxy-ca.pem'),
      PUSH: JSON.stringify(pushBody({ PhoneNumber: '254700000000' }, receiver.url)),
    });
    expect(code, out).toBe(0);
    const answer = JSON.parse(out);
    expect(answer.token).toEqual({ access_token: expect.any(String), expires_in: '3599' });
    expect(answer.status).toBe(200);
    expect(answer.push).toMatchObject({
      ResponseCode: '0',
      CustomerMessage: 'Success. Request accepted for processing',
    });
    // The push is the simulator's own: its callback comes, and its log shows the requests.
    await receiver.waitFor(1);
    expect(receiver.received[0]!.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: answer.push.CheckoutRequestID,
      ResultCode: 0,
    });
    const log = await call(`${sim.url}/_sim/log`);
    expect(JSON.stringify(log.body)).toContain('/mpesa/stkpush/v1/processrequest');
  });

  it('serves api.safaricom.co.ke too, with a certificate for that host from its authority', async () => {
    const token = await viaProxy(sim.url, ca, `${PRODUCTION}${TOKEN_PATH}`, {
      headers: { Authorization: basic },
    });
    expect(token.status).toBe(200);
    expect(token.peer?.subjectAltName).toBe('DNS:api.safaricom.co.ke');
    expect(token.peer?.checkIssued(new (await import('node:crypto')).X509Certificate(ca))).toBe(
      true,
    );
    const push = await viaProxy(sim.url, ca, `${PRODUCTION}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token.body.access_token}` },
      body: pushBody(),
    });
    expect(push.status).toBe(200);
    expect(push.body.ResponseCode).toBe('0');
    // Daraja's refusals as on the plain port.
    const refused = await viaProxy(sim.url, ca, `${SANDBOX}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { Authorization: 'Bearer nope' },
      body: pushBody(),
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({
      errorCode: '404.001.03',
      errorMessage: 'Invalid Access Token',
    });
  });

  it('takes a B2C payment request for sandbox.safaricom.co.ke and posts its Result', async () => {
    // The client's SecurityCredential is made with the simulator's certificate, which it is given
    // as a file (GET /_sim/certificate, or the package's copy): the proxy does not serve /_sim/.
    const credential = await credentialFor(sim, PASSWORD);
    const token = await viaProxy(sim.url, ca, `${SANDBOX}${TOKEN_PATH}`, {
      headers: { Authorization: basic },
    });
    const payout = await viaProxy(sim.url, ca, `${SANDBOX}/mpesa/b2c/v3/paymentrequest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token.body.access_token}` },
      body: {
        OriginatorConversationID: 'proxy-b2c-1',
        InitiatorName: 'testapi',
        SecurityCredential: credential,
        CommandID: 'BusinessPayment',
        Amount: 10,
        PartyA: '600992',
        PartyB: '254705912645',
        Remarks: 'Through the proxy',
        QueueTimeOutURL: `${receiver.url}/b2c-timeout`,
        ResultURL: `${receiver.url}/b2c`,
        Occassion: 'Proxy',
      },
    });
    expect(payout.status).toBe(200);
    expect(payout.peer?.subjectAltName).toBe('DNS:sandbox.safaricom.co.ke');
    expect(payout.body).toEqual({
      OriginatorConversationID: 'proxy-b2c-1',
      ConversationID: expect.stringMatching(/^AG_\d{8}_/),
      ResponseCode: '0',
      ResponseDescription: 'Accept the service request successfully.',
    });
    const results = () => receiver.received.filter((each) => each.path === '/callback/b2c');
    await expect.poll(results).toHaveLength(1);
    expect(results()[0]!.body.Result).toMatchObject({
      ResultCode: 0,
      OriginatorConversationID: 'proxy-b2c-1',
      ConversationID: payout.body.ConversationID,
    });
  });

  it('is no open proxy: another host, or another port, is refused with a sentence', async () => {
    for (const target of [
      'example.com:443',
      'sandbox.safaricom.co.ke:80',
      'api.safaricom.co.ke:8443',
      '127.0.0.1:443',
    ]) {
      const answer = await exchange(sim.url, connectRequest(target));
      expect(answer, target).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      expect(answer.split('\r\n\r\n')[1], target).toBe(`${notADarajaHost(target)}\n`);
    }
    // Node's client says so too.
    await expect(viaProxy(sim.url, ca, 'https://example.com/')).rejects.toThrow(/403 Forbidden/);
  });

  it('does not reach the control API or the virtual phone', async () => {
    const direct = async () => (await call(`${sim.url}/_sim/faults`)).body.rules;
    for (const url of [
      `${SANDBOX}/_sim/info`,
      `${PRODUCTION}/_sim/log`,
      `${SANDBOX}/_sim/proxy/ca.pem`,
    ]) {
      const answer = await viaProxy(sim.url, ca, url);
      expect(answer.status, url).toBe(403);
      expect(answer.body).toEqual({ error: notThroughTheProxyMessage(sim.url) });
    }
    const faults = { rules: [{ operation: 'stkpush', probability: 1, error: 'busy' }] };
    const put = await viaProxy(sim.url, ca, `${SANDBOX}/_sim/faults`, {
      method: 'PUT',
      body: faults,
    });
    expect(put.status).toBe(403);
    expect(await direct()).toEqual([]);
    // The phone's page is not Safaricom's: Daraja's answer for a path it does not have.
    const page = await viaProxy(sim.url, ca, `${SANDBOX}/`);
    expect(page.status).toBe(404);
    expect(page.body).toEqual({
      requestId: '',
      errorCode: '404.001.01',
      errorMessage: 'Resource not found',
    });
  });

  it('serves a request sent to it whole (axios before 2026) for Daraja’s hosts only', async () => {
    const whole = (target: string, extra = '') =>
      exchange(sim.url, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`);
    const token = await whole(`${SANDBOX}${TOKEN_PATH}`, `Authorization: ${basic}\r\n`);
    expect(token).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(token).toContain('"expires_in":"3599"');
    const other = await whole('https://example.com/oauth/v1/generate');
    expect(other).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(other).toContain(notADarajaHost('example.com:443'));
    expect(await whole(`http://api.safaricom.co.ke${TOKEN_PATH}`)).toContain(
      notADarajaHost('api.safaricom.co.ke:80'),
    );
    const control = await whole(`${PRODUCTION}/_sim/info`);
    expect(control).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(control).toContain(JSON.stringify({ error: notThroughTheProxyMessage(sim.url) }));
  });
});

describe('the proxy mode turned off (SIM_PROXY=false)', () => {
  let sim: Harness;
  beforeAll(async () => {
    sim = await startSimulator({ SIM_PROXY: 'false', SIM_PROXY_CA_DIR: '/nonexistent/never-made' });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('refuses every tunnel and request sent whole, saying so, and has no authority', async () => {
    const connect = await exchange(sim.url, connectRequest('sandbox.safaricom.co.ke:443'));
    expect(connect).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(connect.split('\r\n\r\n')[1]).toBe(`${PROXY_OFF}\n`);
    const whole = await exchange(
      sim.url,
      `GET ${SANDBOX}${TOKEN_PATH} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(whole).toContain(PROXY_OFF);
    const answer = await call(`${sim.url}/_sim/proxy/ca.pem`);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatch(/^The proxy mode is off/);
    expect(fs.existsSync('/nonexistent/never-made')).toBe(false);
  });
});
