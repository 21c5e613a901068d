/**
 * The cross-site check compares whole origins, scheme, host and port, with the app's own and
 * CORS_ORIGINS. An attack found it compared the host alone: a page on another port of the same
 * host (the simulator's page, say) could sign a victim in as the attacker. On each database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import {
  OPERATOR_NAMES,
  PASSWORD,
  signedInWorld,
  type SignedInWorld,
} from '../../test/signed-in.ts';

for (const dialect of DIALECTS) {
  describe(`the cross-site check (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;
    afterEach(async () => {
      await world.close();
      await database.destroy();
    });

    async function start(env: Record<string, string> = {}) {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database, env);
    }

    /** A sign-in sent to the app at `host` by a page at `origin`. */
    const signIn = (host: string, origin: string) =>
      world.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { host, origin },
        payload: { name: OPERATOR_NAMES.owner, password: PASSWORD },
      });

    it('refuses a page on another port or scheme of the same host', async () => {
      await start();
      for (const origin of [
        'http://localhost:4010',
        'http://localhost:3001',
        'https://localhost:3000',
        'http://localhost',
        'http://127.0.0.1:3000',
      ]) {
        const answer = await signIn('localhost:3000', origin);
        expect(answer.statusCode, origin).toBe(403);
        expect(answer.json()).toMatchObject({ success: false, code: 'CROSS_SITE_REQUEST' });
      }
    });

    it('lets in a page of its own origin, the default port written or not', async () => {
      await start();
      expect((await signIn('localhost:3000', 'http://localhost:3000')).statusCode).toBe(200);
      expect((await signIn('shop.example', 'http://shop.example:80')).statusCode).toBe(200);
      expect((await signIn('shop.example:80', 'http://shop.example')).statusCode).toBe(200);
    });

    it('lets in its own https page behind a trusted proxy that ends TLS', async () => {
      await start({ TRUST_PROXY: '127.0.0.1' });
      const viaProxy = (forwardedProto: string) =>
        world.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in',
          remoteAddress: '127.0.0.1',
          headers: {
            host: 'shop.example',
            origin: 'https://shop.example',
            'x-forwarded-proto': forwardedProto,
          },
          payload: { name: OPERATOR_NAMES.owner, password: PASSWORD },
        });
      expect((await viaProxy('https')).statusCode).toBe(200);
      // The proxy says the page came over plain HTTP: then an https page is another origin.
      expect((await viaProxy('http')).statusCode).toBe(403);
    });

    it('lets in an origin listed in CORS_ORIGINS only on its own port', async () => {
      await start({ CORS_ORIGINS: 'https://pay.shop.example' });
      expect((await signIn('api.shop.example', 'https://pay.shop.example')).statusCode).toBe(200);
      expect((await signIn('api.shop.example', 'https://pay.shop.example:443')).statusCode).toBe(
        200,
      );
      const otherPort = await signIn('api.shop.example', 'https://pay.shop.example:8443');
      expect(otherPort.statusCode).toBe(403);
      expect(otherPort.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
    });
  });
}
