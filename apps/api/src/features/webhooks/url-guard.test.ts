/**
 * Where webhooks may go: in production no http://, nothing on this machine or a private network,
 * whether written as an address or as a name that resolves to one, checked when saved and again at
 * each delivery on the address connected to (a name's DNS can change); an IPv6 address that
 * carries an IPv4 one judged as that IPv4 address, whatever its spelling.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import { testConfig } from '../../test/test-app.ts';
import {
  checkWebhookUrl,
  ipv6Bytes,
  isForbiddenAddress,
  systemResolve,
  type Resolve,
} from './url-guard.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import { deliverOnce, paymentSucceeded, webhookClock } from '../../test/webhook-world.ts';

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

  it('refuses private addresses everywhere but the simulator; =true is honoured in the sandbox, refused in production', () => {
    const sandbox = {
      MPESA_ENV: 'sandbox',
      MPESA_CONSUMER_KEY: 'k',
      MPESA_CONSUMER_SECRET: 's',
      MPESA_CALLBACK_URL: 'https://shop.example',
    };
    const production = {
      ...sandbox,
      MPESA_ENV: 'production',
      MPESA_SHORTCODE: '123456',
      MPESA_PASSKEY: 'p',
    };
    expect(testConfig().webhooks).toMatchObject({ allowPrivateUrls: true, httpsOnly: false });
    expect(testConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }).webhooks.allowPrivateUrls).toBe(
      false,
    );
    expect(testConfig(sandbox).webhooks).toMatchObject({
      allowPrivateUrls: false,
      httpsOnly: false,
    });
    expect(
      testConfig({ ...sandbox, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).webhooks.allowPrivateUrls,
    ).toBe(true);
    expect(testConfig(production).webhooks).toMatchObject({
      allowPrivateUrls: false,
      httpsOnly: true,
    });
    expect(() => testConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_URLS=true cannot be used when MPESA_ENV=production/,
    );
  });
});

/**
 * Every way an IPv6 address can carry an IPv4 one, each spelt several ways: `hex` is the IPv4
 * address as two hex groups, `dotted` as written.
 */
function embeddings(dotted: string): string[] {
  const bytes = dotted.split('.').map(Number);
  const word = (a: number, b: number) => ((bytes[a]! << 8) | bytes[b]!).toString(16);
  const [high, low] = [word(0, 1), word(2, 3)];
  const pad = (group: string) => group.padStart(4, '0');
  const teredo = (group: string) => (parseInt(group, 16) ^ 0xffff).toString(16);
  return [
    // IPv4-mapped ::ffff:0:0/96
    `::ffff:${dotted}`,
    `::ffff:${high}:${low}`,
    `::FFFF:${high.toUpperCase()}:${low.toUpperCase()}`,
    `0:0:0:0:0:ffff:${high}:${low}`,
    `0000:0000:0000:0000:0000:ffff:${pad(high)}:${pad(low)}`,
    // SIIT's IPv4-translated ::ffff:0:0:0/96
    `::ffff:0:${high}:${low}`,
    `::ffff:0:${dotted}`,
    `0:0:0:0:ffff:0000:${pad(high)}:${pad(low)}`,
    // IPv4-compatible ::/96
    `::${high}:${low}`,
    `::${dotted}`,
    `0:0:0:0:0:0:${dotted}`,
    `0000:0000:0000:0000:0000:0000:${pad(high).toUpperCase()}:${pad(low)}`,
    // 6to4 2002::/16
    `2002:${high}:${low}::`,
    `2002:${pad(high)}:${pad(low)}:1:2:3:4:5`,
    // NAT64, the well-known prefix and the local-use one
    `64:ff9b::${high}:${low}`,
    `64:ff9b::${dotted}`,
    `0064:FF9B:0000:0000:0000:0000:${pad(high)}:${pad(low)}`,
    `64:ff9b:1::${high}:${low}`,
    `64:ff9b:1::${dotted}`,
    // Teredo 2001::/32: the client's address inverted in the last 32 bits
    `2001:0:4136:e378:8000:63bf:${teredo(high)}:${teredo(low)}`,
    `2001:0000:4136:e378:8000:63bf:${pad(teredo(high)).toUpperCase()}:${pad(teredo(low))}`,
  ];
}

describe('the URL guard on IPv6 addresses that carry an IPv4 one', () => {
  for (const inside of ['127.0.0.1', '10.0.0.1', '169.254.169.254']) {
    it.each(embeddings(inside))(`refuses %s (${inside})`, async (address) => {
      expect(isForbiddenAddress(address)).toBe(true);
      await expect(
        checkWebhookUrl(`https://[${address}]/e`, PRODUCTION, PUBLIC_DNS),
      ).rejects.toThrow(/on this machine or a private network/);
      const named = dns({ 'hooks.example': address });
      await expect(checkWebhookUrl('https://hooks.example/e', PRODUCTION, named)).rejects.toThrow(
        /hooks\.example leads to/,
      );
    });
  }

  it.each(embeddings('8.8.8.8'))('judges %s as 8.8.8.8, which is allowed', async (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
    const url = await checkWebhookUrl(`https://[${address}]/e`, PRODUCTION, PUBLIC_DNS);
    expect(url.protocol).toBe('https:');
  });

  it('refuses the local-use NAT64 prefix where the IPv4 address cannot be told', () => {
    expect(isForbiddenAddress('64:ff9b:1:7f00:1::')).toBe(true);
    expect(isForbiddenAddress('64:ff9b:1:808:8:800::')).toBe(true);
  });

  it('reads an IPv6 address into its 16 bytes whatever its spelling', () => {
    const bytes = (text: string) => Array.from(ipv6Bytes(text)!);
    const loopbackMapped = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1];
    expect(bytes('::ffff:127.0.0.1')).toEqual(loopbackMapped);
    expect(bytes('0:0:0:0:0:FFFF:7F00:0001')).toEqual(loopbackMapped);
    expect(bytes('fe80::1%eth0')).toEqual([0xfe, 0x80, ...Array<number>(13).fill(0), 1]);
    expect(ipv6Bytes('10.0.0.1')).toBeUndefined();
    expect(ipv6Bytes('1::2::3')).toBeUndefined();
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

    it.each(['::7f00:1', '2002:7f00:1::', '::ffff:0:7f00:1', '64:ff9b::7f00:1'])(
      'refuses at delivery a name whose DNS now answers %s (127.0.0.1 inside IPv6)',
      async (address) => {
        await anEndpoint(database.db, { url: `http://hooks.example:${receiver.port}/events` });
        await paymentSucceeded(database.db, 'p1', clock.now());
        const policy = { allowPrivateUrls: false, httpsOnly: false };
        await deliverOnce(database.db, clock.now, {
          settings: policy,
          resolve: dns({ 'hooks.example': address }),
        });
        expect(receiver.received).toEqual([]);
        const [refused] = await database.db.selectFrom('webhook_deliveries').selectAll().execute();
        expect(refused!.last_error).toContain(`hooks.example leads to ${address}`);
      },
    );
  });
}

describe('the system resolver', () => {
  it('finds localhost and its subdomains on this machine without asking a nameserver', async () => {
    const loopback = [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
    expect(await systemResolve('localhost')).toEqual(loopback);
    expect(await systemResolve('Shop.LOCALHOST.')).toEqual(loopback);
  });
});
