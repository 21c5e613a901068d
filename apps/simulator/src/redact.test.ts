/**
 * The masking rule (redact.ts) on its own, then everywhere the simulator shows or logs what it
 * received: the request log, the prompts, the events and pino.
 */
import { Writable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildSimulator } from './app.ts';
import { loadSimulatorConfig } from './config.ts';
import { stkPassword } from './operations/stk/password.ts';
import { mask, redactAuthorization, redactBody, redactText, redactUrl } from './redact.ts';
import {
  PASSKEY,
  SHORTCODE,
  call,
  pushBody,
  startReceiver,
  startSimulator,
  type Harness,
  type Receiver,
} from './test/harness.ts';

const SECRET = 'Zx9_k2-LmQ8vR4tYw7Np'; // 20 characters, as the API's callback secrets are
const PASSWORD = stkPassword(SHORTCODE, PASSKEY, '20260314093000');

describe('mask', () => {
  it('keeps the first 4 characters of a token and an ellipsis', () => {
    expect(mask(SECRET)).toBe('Zx9_…');
    expect(mask(PASSWORD)).toBe(`${PASSWORD.slice(0, 4)}…`);
  });

  it('keeps nothing of a value shorter than a token', () => {
    expect(mask('hunter2')).toBe('…');
  });

  it('changes nothing the second time', () => {
    expect(mask(mask(SECRET))).toBe('Zx9_…');
    const url = `https://pay.example.com/api/mpesa/callback/${SECRET}?token=abc`;
    expect(redactUrl(redactUrl(url))).toBe(redactUrl(url));
  });
});

describe('redactUrl', () => {
  it("masks the API's callback secret, 16 to 128 characters", () => {
    expect(redactUrl(`http://127.0.0.1:3000/api/mpesa/callback/${SECRET}`)).toBe(
      'http://127.0.0.1:3000/api/mpesa/callback/Zx9_…',
    );
    const longest = 'A1_-'.repeat(32);
    expect(redactUrl(`https://pay.example.com/api/mpesa/callback/${longest}`)).toBe(
      'https://pay.example.com/api/mpesa/callback/A1_-…',
    );
    expect(redactUrl('/api/mpesa/callback/0123456789abcdef')).toBe('/api/mpesa/callback/0123…');
  });

  it('masks a token in any path segment or query value, and any value named as a secret', () => {
    expect(redactUrl(`https://shop.example.com/hooks/${SECRET}/mpesa?order=42`)).toBe(
      'https://shop.example.com/hooks/Zx9_…/mpesa?order=42',
    );
    expect(
      redactUrl(`https://shop.example.com/cb?order=42&key=${SECRET}&token=abc123&Signature=x`),
    ).toBe('https://shop.example.com/cb?order=42&key=Zx9_…&token=…&Signature=…');
    expect(redactUrl(`https://shop.example.com/cb#access_token=${SECRET}`)).toBe(
      'https://shop.example.com/cb#access_token=Zx9_…',
    );
    expect(redactUrl('https://user:hunter2@shop.example.com/cb')).toBe(
      'https://user:…@shop.example.com/cb',
    );
  });

  it('leaves short segments, the host and Daraja’s own parameters readable', () => {
    for (const url of [
      '/mpesa/stkpush/v1/processrequest',
      '/oauth/v1/generate?grant_type=client_credentials',
      'https://my-very-long-subdomain-name.ngrok-free.app/api/cb?id=123456789012345',
      'http://127.0.0.1:3000/callback',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe('a path’s words', () => {
  it('are never masked: Daraja’s long path names and a receiver’s words, in the path or a query', () => {
    for (const url of [
      '/mpesa/transactionstatus/v1/query',
      '/mpesa/accountbalance/v1/query',
      'https://shop.example.com/hooks/payment-confirmation-callback/AccountBalanceResult',
      'https://shop.example.com/mpesa/TRANSACTION_STATUS_RESULT?kind=transactionstatusresult',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('leave a token among them masked, whatever its letters', () => {
    expect(redactUrl('/mpesa/transactionstatus/cb/Zx9_k2-LmQ8vR4tYw7Np')).toBe(
      '/mpesa/transactionstatus/cb/Zx9_…',
    );
    // Letters only, but not as words are written: two capitals together, a one-letter word.
    expect(redactUrl('/cb/qWERtyuiopASdfghJK')).toBe('/cb/qWER…');
    expect(redactUrl('/cb/abcdefghijklmnopQ')).toBe('/cb/abcd…');
    expect(redactUrl('/cb/Abcdefgh-ijklmnoP')).toBe('/cb/Abcd…');
  });

  it('are left whole on every route the simulator has, as its description lists them', async () => {
    const sim = await buildSimulator(loadSimulatorConfig({}), { logger: false });
    const answer = await sim.app.inject('/_sim/openapi.json');
    await sim.app.close();
    const paths = Object.keys((answer.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/mpesa/transactionstatus/v1/query');
    for (const path of paths) expect(redactUrl(path)).toBe(path);
  });
});

describe('redactAuthorization', () => {
  it('masks Basic credentials and bearer tokens, keeping the scheme', () => {
    const basic = Buffer.from('consumer-key:consumer-secret').toString('base64');
    expect(redactAuthorization(`Basic ${basic}`)).toBe(`Basic ${basic.slice(0, 4)}…`);
    expect(redactAuthorization('Bearer c9SQxWWhmdVRlyh0zh8gZDTkubVF')).toBe('Bearer c9SQ…');
    expect(redactAuthorization('c9SQxWWhmdVRlyh0zh8gZDTkubVF')).toBe('c9SQ…');
    expect(redactAuthorization(undefined)).toBeNull();
  });
});

describe('redactBody', () => {
  it('masks the STK Password, access tokens and URLs in a JSON body, field by field', () => {
    const body = {
      BusinessShortCode: SHORTCODE,
      Password: PASSWORD,
      Timestamp: '20260314093000',
      Amount: 1,
      CallBackURL: `https://pay.example.com/api/mpesa/callback/${SECRET}`,
      CheckoutRequestID: 'ws_CO_14032026093000123708374149',
      nested: [{ SecurityCredential: 'c2VjcmV0LWNyZWRlbnRpYWw=' }],
    };
    expect(redactBody(body)).toEqual({
      ...body,
      Password: `${PASSWORD.slice(0, 4)}…`,
      CallBackURL: 'https://pay.example.com/api/mpesa/callback/Zx9_…',
      nested: [{ SecurityCredential: 'c2Vj…' }],
    });
    expect(
      redactBody({ access_token: 'c9SQxWWhmdVRlyh0zh8gZDTkubVF', expires_in: '3599' }),
    ).toEqual({ access_token: 'c9SQ…', expires_in: '3599' });
    expect(redactBody(null)).toBeNull();
  });

  it('masks secrets in text that is not JSON', () => {
    const malformed = `{"Password":"${PASSWORD}","CallBackURL":"https://pay.example.com/api/mpesa/callback/${SECRET}",`;
    const shown = redactText(malformed);
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain(SECRET);
    expect(shown).toBe(
      `{"Password":"${PASSWORD.slice(0, 4)}…","CallBackURL":"https://pay.example.com/api/mpesa/callback/Zx9_…",`,
    );
    expect(redactBody('token=abcdef&plain=text')).toBe('token=…&plain=text');
  });
});

describe('what the simulator shows and logs', () => {
  const QUERY_TOKEN = 'qT0k3n_abcdefghijklmnop';
  let sim: Harness;
  let receiver: Receiver;
  beforeEach(async () => {
    sim = await startSimulator();
    receiver = await startReceiver();
    return async () => {
      await receiver.close();
      await sim.close();
    };
  });

  /** Server-sent events from the control API, as text, for as long as the test needs them. */
  function listen(url: string) {
    const controller = new AbortController();
    let text = '';
    void fetch(url, { signal: controller.signal })
      .then(async (response) => {
        const decoder = new TextDecoder();
        for await (const chunk of response.body!) text += decoder.decode(chunk, { stream: true });
      })
      .catch(() => undefined);
    return { text: () => text, close: () => controller.abort() };
  }

  it('shows no secret in the log, the prompts or the events, and still calls back the full URL', async () => {
    const callbackUrl = `${receiver.url}/api/mpesa/callback/${SECRET}?token=${QUERY_TOKEN}`;
    const basic = Buffer.from('consumer-key:consumer-secret').toString('base64');
    const live = listen(`${sim.url}/_sim/events`);
    await expect.poll(live.text).toContain('event: hello');

    const oauth = await call(`${sim.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { Authorization: `Basic ${basic}` },
    });
    const bearer: string = oauth.body.access_token;
    const body = pushBody({}, callbackUrl);
    const push = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
      body,
    });
    expect(push.status).toBe(200);
    const id: string = push.body.CheckoutRequestID;
    const paid = await call(`${sim.url}/_sim/prompts/${id}/pin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: { pin: '1234' },
    });
    await receiver.waitFor(1);
    await expect.poll(live.text).toContain('"kind":"callback"');
    live.close();

    // The callback went to the full URL, secret and query included.
    expect(receiver.received[0]?.path).toBe(
      `/callback/api/mpesa/callback/${SECRET}?token=${QUERY_TOKEN}`,
    );

    const masked = `${receiver.url}/api/mpesa/callback/Zx9_…?token=qT0k…`;
    const log = (await call(`${sim.url}/_sim/log`)).body.entries;
    const prompts = (await call(`${sim.url}/_sim/prompts`)).body.prompts;
    const prompt = (await call(`${sim.url}/_sim/prompts/${id}`)).body;
    const again = await call(`${sim.url}/_sim/prompts/${id}/cancel`, { method: 'POST' });
    const later = listen(`${sim.url}/_sim/events`);
    await expect.poll(later.text).toContain('event: hello');
    later.close();

    expect(log.find((e: { kind: string }) => e.kind === 'callback')).toMatchObject({
      url: masked,
    });
    expect(log.find((e: { path: string }) => e.path?.startsWith('/mpesa/stkpush'))).toMatchObject({
      authorization: `Bearer ${bearer.slice(0, 4)}…`,
      requestBody: { Password: `${body.Password.slice(0, 4)}…`, CallBackURL: masked },
    });
    expect(log.find((e: { path: string }) => e.path?.startsWith('/oauth'))).toMatchObject({
      path: '/oauth/v1/generate?grant_type=client_credentials',
      authorization: `Basic ${basic.slice(0, 4)}…`,
      responseBody: { access_token: `${bearer.slice(0, 4)}…` },
    });
    expect(prompts[0].callbackUrl).toBe(masked);
    expect(prompt.callbackUrl).toBe(masked);
    expect(paid.body.callbackUrl).toBe(masked);
    expect(again.status).toBe(409);
    expect(again.body.prompt.callbackUrl).toBe(masked);

    const shown = [log, prompts, prompt, paid.body, again.body, live.text(), later.text()].map(
      (part) => (typeof part === 'string' ? part : JSON.stringify(part)),
    );
    for (const text of shown) {
      for (const secret of [SECRET, QUERY_TOKEN, body.Password, bearer, basic]) {
        expect(text).not.toContain(secret);
      }
    }
    expect(live.text()).toContain(masked);
    expect(later.text()).toContain(masked);
    // In-process, for tests that need it, the prompt keeps its full URL: it is what gets called.
    expect(sim.prompts.get(id)?.callbackUrl).toBe(callbackUrl);
  });

  it("masks secrets in pino's request lines", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logged = await buildSimulator(loadSimulatorConfig({ LOG_LEVEL: 'info' }), {
      logger: { level: 'info', stream },
    });
    try {
      const basic = Buffer.from('consumer-key:consumer-secret').toString('base64');
      await logged.app.inject({
        url: `/oauth/v1/generate?grant_type=client_credentials&access_token=${QUERY_TOKEN}`,
        headers: { authorization: `Basic ${basic}` },
      });
      await logged.app.inject({ method: 'POST', url: `/api/mpesa/callback/${SECRET}` });
      const text = lines.join('');
      expect(text).toContain('"url":"/api/mpesa/callback/Zx9_…"');
      expect(text).toContain(
        '"url":"/oauth/v1/generate?grant_type=client_credentials&access_token=qT0k…"',
      );
      for (const secret of [SECRET, QUERY_TOKEN, basic]) expect(text).not.toContain(secret);
    } finally {
      await logged.app.close();
    }
  });
});
