/**
 * Where webhooks may go: in production no http://, nothing on this machine or a private network,
 * whether written as an address or as a name that resolves to one, checked when saved and again at
 * each delivery on the address connected to (a name's DNS can change).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { startReceiver, type Receiver } from '../test/webhook-receiver.ts';
import { testConfig } from '../test/test-app.ts';
import { checkWebhookUrl, isForbiddenAddress, systemResolve, type Resolve } from './url-guard.ts';
import { anEndpoint } from './webhooks.fixtures.ts';
import { deliverOnce, paymentSucceeded, webhookClock } from './webhook-world.ts';

const PRODUCTION = { allowPrivateUrls: false, httpsOnly: true };
/** DNS as the test says: names to addresses. */
const dns =
  (names: Record<string, string>): Resolve =>
  async (host) => {
    const address = names[host];
    if (!address) throw new Error(`ENOTFOUND ${host}`);
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
const PUBLIC_DNS = dns({
  'hooks.example': '93.184.216.34',
  'inside.example': '10.0.0.5',
  'metadata.example': '169.254.169.254',
});

describe('the URL guard', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.1',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:a00:1',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '172.32.0.1', '100.128.0.1', '8.8.8.8', '2606:4700::1111'])(
    'allows %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it.each([
    ['http://hooks.example/events', /https:\/\/ in production/],
    ['https://127.0.0.1/events', /127\.0\.0\.1 is on this machine or a private network/],
    ['https://10.0.0.1:8443/events', /10\.0\.0\.1 is on this machine or a private network/],
    ['https://[::1]/events', /::1 is on this machine/],
    ['https://inside.example/events', /inside\.example leads to 10\.0\.0\.5/],
    ['https://metadata.example/latest', /leads to 169\.254\.169\.254/],
    ['https://user:pw@hooks.example/events', /must not carry a name or password/],
    ['ftp://hooks.example/events', /must begin with https:\/\//],
    ['not a url', /not valid/],
  ])('refuses %s in production', async (url, why) => {
    await expect(checkWebhookUrl(url, PRODUCTION, PUBLIC_DNS)).rejects.toThrow(why);
  });

  it('refuses a name the system resolves to this machine (localhost) in production', async () => {
    await expect(
      checkWebhookUrl('https://localhost/events', PRODUCTION, systemResolve),
    ).rejects.toThrow(/localhost leads to/);
  });

  it('takes a public https URL in production, and 127.0.0.1 where private addresses are allowed', async () => {
    expect((await checkWebhookUrl('https://hooks.example/e', PRODUCTION, PUBLIC_DNS)).href).toBe(
      'https://hooks.example/e',
    );
    const development = { allowPrivateUrls: true, httpsOnly: false };
    expect((await checkWebhookUrl('http://127.0.0.1:4000/e', development, PUBLIC_DNS)).host).toBe(
      '127.0.0.1:4000',
    );
  });

  it('is the default in production only, and WEBHOOK_ALLOW_PRIVATE_URLS=true lifts it', () => {
    const production = {
      MPESA_ENV: 'production',
      MPESA_CONSUMER_KEY: 'k',
      MPESA_CONSUMER_SECRET: 's',
      MPESA_SHORTCODE: '123456',
      MPESA_PASSKEY: 'p',
      MPESA_CALLBACK_URL: 'https://shop.example',
    };
    expect(testConfig(production).webhooks).toMatchObject({
      allowPrivateUrls: false,
      httpsOnly: true,
    });
    expect(
      testConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).webhooks.allowPrivateUrls,
    ).toBe(true);
    expect(testConfig().webhooks).toMatchObject({ allowPrivateUrls: true, httpsOnly: false });
  });
});

for (const dialect of DIALECTS) {
  describe(`the URL guard at each delivery (${dialect})`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    const clock = webhookClock();

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      receiver = await startReceiver();
    });
    afterEach(async () => {
      await receiver.close();
      await database.destroy();
    });

    it('connects to the address it checked, and refuses a name whose DNS now leads inside', async () => {
      // Saved while hooks.example was public; its DNS now answers this machine's address.
      await anEndpoint(database.db, { url: `http://hooks.example:${receiver.port}/events` });
      await paymentSucceeded(database.db, 'p1', clock.now());
      const rebound = dns({ 'hooks.example': '127.0.0.1' });
      const policy = { allowPrivateUrls: false, httpsOnly: false };
      await deliverOnce(database.db, clock.now, { settings: policy, resolve: rebound });
      expect(receiver.received).toEqual([]);
      const [refused] = await database.db.selectFrom('webhook_deliveries').selectAll().execute();
      expect(refused!.last_error).toMatch(/hooks\.example leads to 127\.0\.0\.1/);
      expect(refused!.last_status).toBeNull();

      // Where private addresses are allowed, the same name reaches the receiver, sent as Host.
      clock.advance(60_000);
      await deliverOnce(database.db, clock.now, {
        settings: { ...policy, allowPrivateUrls: true },
        resolve: rebound,
      });
      expect(receiver.received.map((each) => each.headers.host)).toEqual([
        `hooks.example:${receiver.port}`,
      ]);
    });
  });
}
