/**
 * HTTP Basic in front of the app (a proxy's sign-in): browsers then send `Authorization: Basic …`
 * with every request. Only `Bearer` carries an API key; any other scheme is no credential of ours,
 * so the payer's page and form work as for anyone, and an operator's cookie still counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import {
  OPERATOR_NAMES,
  PAYMENT_ID,
  signedInWorld,
  type Browser,
  type SignedInWorld,
} from '../../test/signed-in.ts';

const BASIC = { authorization: `Basic ${Buffer.from('shop:proxy-password').toString('base64')}` };

describe('an Authorization header of another scheme than Bearer (HISTORY_ACCESS=operators)', () => {
  let database: TestDatabase;
  let world: SignedInWorld;
  let owner: Browser;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    world = await signedInWorld(database);
    owner = await world.signIn('owner');
  });
  afterAll(async () => {
    await world.close();
    await database.destroy();
  });

  const page = (headers: Record<string, string>) =>
    world.app.inject({ url: `/api/mpesa/transactions/${PAYMENT_ID}`, headers });

  it('shows a payer the payment’s page as to anyone with no credential', async () => {
    const stranger = await page({});
    const behindProxy = await page(BASIC);
    expect(behindProxy.statusCode, behindProxy.body).toBe(200);
    expect(behindProxy.json()).toEqual(stranger.json());
  });

  it('takes a payer’s payment request', async () => {
    const answer = await world.app.inject({
      method: 'POST',
      url: '/api/mpesa/stkpush',
      payload: { phoneNumber: '0712000011', amount: 10 },
      headers: BASIC,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ success: true, transactionId: expect.any(String) });
  });

  it('lets an owner with a valid cookie through as the owner', async () => {
    const headers = { ...BASIC, cookie: owner.cookie };
    const me = await world.app.inject({ url: '/api/auth/me', headers });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ data: { name: OPERATOR_NAMES.owner, role: 'owner' } });
    const list = await world.app.inject({ url: '/api/mpesa/transactions', headers });
    expect(list.statusCode, list.body).toBe(200);
    // The merchant's view, as with the cookie alone.
    const merchants = await page({ cookie: owner.cookie });
    const behindProxy = await page(headers);
    expect(behindProxy.json()).toEqual(merchants.json());
    expect(behindProxy.json()).not.toEqual((await page({})).json());
  });

  it('still refuses a Bearer key that is not valid, whatever cookie comes with it', async () => {
    const answer = await page({ authorization: 'Bearer mpk_not-a-key', cookie: owner.cookie });
    expect(answer.statusCode).toBe(401);
  });
});
