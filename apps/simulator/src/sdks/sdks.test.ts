/**
 * Daraja SDKs from npm, unpatched, against the simulator (README: "Any SDK as it is"): each runs in
 * a Node process of its own with what its user gives it for Safaricom's sandbox, plus
 * HTTPS_PROXY pointing at the simulator and its authority trusted, and nothing else. The SDKs
 * reach the proxy mode each its own way: mpesa-node's axios 0.18 speaks TLS straight to the port,
 * daraja.js's axios 0.27 sends its requests whole, mpesa-api (Node's https) and daraja (request)
 * ask for a tunnel. Their versions are pinned in the root package.json, so that a new version that
 * breaks shows here when it is taken. Nothing leaves 127.0.0.1, and the Results come by moving the
 * simulator's clock, not by waiting.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATE_FILE } from '../operations/initiators/credential.ts';
import { PASSKEY, SHORTCODE, startReceiver, startSimulator } from '../test/harness.ts';
import type { Harness, Receiver } from '../test/harness.ts';

const SCRIPTS = path.join(import.meta.dirname, '../test/sdks');
const PASSWORD = 'Safaricom999!*!';
const CUSTOMER = '254708374149';

/** Each SDK: its script in test/sdks/, the environment it needs besides the proxy's, its payer. */
const SDKS = {
  'mpesa-node': { script: 'mpesa-node.mjs', env: {}, phone: '254711000001' },
  'daraja.js': { script: 'daraja-js.mjs', env: {}, phone: '254711000002' },
  // Node's own https takes HTTPS_PROXY only when told to.
  'mpesa-api': { script: 'mpesa-api.mjs', env: { NODE_USE_ENV_PROXY: '1' }, phone: '254711000003' },
  daraja: { script: 'daraja.mjs', env: {}, phone: '254711000004' },
} as const;
type SdkName = keyof typeof SDKS;

interface Outcome {
  ok: boolean;
  status?: number;
  data?: Record<string, unknown>;
  message?: string;
}

/** Runs an SDK's script and returns its report, each call's outcome by name. */
function runSdk(
  name: SdkName,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; calls: Record<string, Outcome> }> {
  const { script, env: own } = SDKS[name];
  const child = spawn(process.execPath, [path.join(SCRIPTS, script)], {
    env: { PATH: process.env.PATH ?? '', ...env, ...own },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 15_000,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      let calls: Record<string, Outcome> = {};
      try {
        calls = JSON.parse(last) as Record<string, Outcome>;
      } catch {
        // no report: the test shows what the process said
      }
      resolve({ code, out: `${out}${err}`, calls });
    }),
  );
}

let sim: Harness;
let receiver: Receiver;
let folder: string;
let receipt: string;
const ran = {} as Record<SdkName, Awaited<ReturnType<typeof runSdk>>>;

/** The callbacks and Results posted to one SDK's URLs, by the last word of the path. */
function posted(name: SdkName) {
  const prefix = new URL(receiver.url).pathname + `/${name}/`;
  return Object.fromEntries(
    receiver.received
      .filter(({ path: at }) => at.startsWith(prefix))
      .map(({ path: at, body }) => [at.slice(prefix.length), body]),
  );
}

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-sdks-'));
  // Callbacks and Results wait 30 s of the simulator's clock (within the prompts' 60): the test
  // moves it.
  sim = await startSimulator({ SIM_PROXY_CA_DIR: folder, SIM_CALLBACK_DELAY_MS: '30000' });
  receiver = await startReceiver();
  const ca = path.join(folder, 'daraja-simulator-proxy-ca.pem');
  await sim.authority!.load();
  // Each SDK's payer pays: a chosen outcome, so that four pushes at once prompt no phone.
  for (const { phone } of Object.values(SDKS)) {
    const chosen = await sim.app.inject({
      method: 'PUT',
      url: `/_sim/numbers/${phone}/next`,
      payload: { outcome: '0' },
    });
    expect(chosen.statusCode).toBe(200);
  }
  // A payment for transaction status to find.
  const paid = sim.ledger.move({
    kind: 'stk',
    amount: 250_00,
    from: { msisdn: CUSTOMER },
    to: { shortcode: SHORTCODE, account: 'Utility Account' },
  });
  if (!paid.ok) throw new Error(paid.message);
  receipt = paid.transaction.receipt;
  const certificate = fs.readFileSync(CERTIFICATE_FILE, 'utf8');
  const credential = crypto
    .publicEncrypt(
      { key: certificate, padding: crypto.constants.RSA_PKCS1_PADDING },
      Buffer.from(PASSWORD),
    )
    .toString('base64');
  await Promise.all(
    (Object.keys(SDKS) as SdkName[]).map(async (name) => {
      const input = {
        shortcode: SHORTCODE,
        passkey: PASSKEY,
        phone: SDKS[name].phone,
        password: PASSWORD,
        certificate: CERTIFICATE_FILE,
        credential,
        receipt,
        receiver: receiver.url,
      };
      ran[name] = await runSdk(name, {
        HTTPS_PROXY: sim.url,
        NODE_EXTRA_CA_CERTS: ca,
        SDK_INPUT: JSON.stringify(input),
      });
    }),
  );
  const advanced = await sim.app.inject({
    method: 'POST',
    url: '/_sim/clock/advance',
    payload: { seconds: 31 },
  });
  expect(advanced.statusCode).toBe(200);
  // Every SDK's push callback, B2C Result and status Result; mpesa-node's B2B Result too.
  await receiver.waitFor(13);
});

afterAll(async () => {
  await sim?.close();
  await receiver?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

const ACK = { ResponseCode: '0', ResponseDescription: 'Accept the service request successfully.' };
const PUSHED = { ResponseCode: '0', CheckoutRequestID: expect.stringMatching(/^ws_CO_/) };

/** What every SDK's calls end in: the push paid, the payout made, the payment's status found. */
function expectPaidAndFound(name: SdkName) {
  const results = posted(name);
  expect(results.stk?.Body?.stkCallback, name).toMatchObject({ ResultCode: 0 });
  // A Result of 0 also says that the SecurityCredential passed.
  expect(results.b2c?.Result, name).toMatchObject({ ResultCode: 0 });
  expect(results.status?.Result, name).toMatchObject({ ResultCode: 0 });
  expect(results.status.Result.ResultParameters.ResultParameter).toContainEqual({
    Key: 'ReceiptNo',
    Value: receipt,
  });
}

describe('Daraja SDKs from npm, as they are, through the proxy mode', () => {
  it('mpesa-node 0.1.3 (axios 0.18: TLS straight to the port): push, query, B2C, status, B2B', () => {
    const { code, out, calls } = ran['mpesa-node'];
    expect(code, out).toBe(0);
    expect(calls.push, out).toMatchObject({ ok: true, status: 200, data: PUSHED });
    // Asked before the payer answered: Daraja's "still processing".
    expect(calls.query, out).toMatchObject({
      ok: false,
      status: 500,
      data: { errorCode: '500.001.1001', errorMessage: 'The transaction is being processed' },
    });
    expect(calls.b2c, out).toMatchObject({ ok: true, status: 200, data: ACK });
    expect(calls.status, out).toMatchObject({ ok: true, status: 200, data: ACK });
    // Its default CommandID is not one Daraja documents for B2B; BusinessPayBill is.
    expect(calls.b2bDefault, out).toMatchObject({
      ok: false,
      status: 400,
      data: { errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid CommandID' },
    });
    expect(calls.b2b, out).toMatchObject({ ok: true, status: 200, data: ACK });
    expectPaidAndFound('mpesa-node');
    expect(posted('mpesa-node').b2b?.Result).toMatchObject({ ResultCode: 0 });
  });

  it('daraja.js 1.0.2 (axios 0.27: requests sent whole): push, B2C, status with IdentifierType 1', () => {
    const { code, out, calls } = ran['daraja.js'];
    expect(code, out).toBe(0);
    expect(calls.push, out).toMatchObject({ ok: true, data: PUSHED });
    expect(calls.b2c, out).toMatchObject({ ok: true, data: ACK });
    expect(calls.status, out).toMatchObject({ ok: true, data: ACK });
    expectPaidAndFound('daraja.js');
  });

  it('mpesa-api 3.0.2 (Node’s https, a tunnel): push, B2C, status', () => {
    const { code, out, calls } = ran['mpesa-api'];
    expect(code, out).toBe(0);
    expect(calls.push, out).toMatchObject({ ok: true, data: PUSHED });
    expect(calls.b2c, out).toMatchObject({ ok: true, data: ACK });
    expect(calls.status, out).toMatchObject({ ok: true, data: ACK });
    expectPaidAndFound('mpesa-api');
  });

  it('daraja 1.0.1 (request, a tunnel; Safaricom’s certificate): push, B2C, status', () => {
    const { code, out, calls } = ran.daraja;
    expect(code, out).toBe(0);
    // It hands back the answers' fields it reads, renamed.
    expect(calls.push, out).toMatchObject({
      ok: true,
      data: { checkoutRequestId: expect.stringMatching(/^ws_CO_/) },
    });
    const acknowledged = { responseDescription: ACK.ResponseDescription };
    expect(calls.b2c, out).toMatchObject({ ok: true, data: acknowledged });
    expect(calls.status, out).toMatchObject({ ok: true, data: acknowledged });
    expectPaidAndFound('daraja');
  });
});
