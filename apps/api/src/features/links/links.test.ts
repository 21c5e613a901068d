/**
 * Payment links over HTTP, on both databases, against the simulator as Daraja: a cashier makes a
 * one-payment link, a payer pays it with only a phone, and the link shows paid with that payment;
 * a second payer is refused and nothing is sent, even when both pay at the same moment; a failed
 * prompt opens the link again; an expired or switched-off link takes no payment; the payer's page
 * names no payer; the limits; who may do what.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addStaff, send, signedIn, STAFF } from '../../test/operator-session.ts';
import { CALLBACK_PATH } from '../../test/test-app.ts';
import { DIALECTS } from '../../test/test-db.ts';
import { failureCallback, successCallback } from '../../test/callbacks.ts';
import { useApiWithSimulator } from '../../test/world.ts';

let phones = 0;
const aPhone = () => `0712${String(100_000 + phones++).padStart(6, '0')}`;

for (const dialect of DIALECTS) {
  describe(`payment links (${dialect})`, () => {
    let clock = new Date('2026-11-29T09:00:00.000Z');
    const world = useApiWithSimulator(dialect, {
      now: () => clock,
      env: { LINKS_PER_HOUR: '3', LINK_PAYMENTS_PER_MINUTE: '4', BUSINESS_NAME: 'Duka la Mama' },
    });
    let cashier: string;

    beforeEach(async () => {
      clock = new Date('2026-11-29T09:00:00.000Z');
      await addStaff(world.database, clock);
      cashier = await signedIn(world.app, STAFF.cashier);
    });
    afterEach(() => undefined);

    const make = async (payload: Record<string, unknown>, session = cashier) =>
      send(world.app, { method: 'POST', url: '/api/links', payload }, session);
    const aLink = async (payload: Record<string, unknown> = {}) => {
      const made = await make({
        amount: 1500,
        purpose: 'Kitenge dress',
        reference: 'ORDER-77',
        oneOnly: true,
        ...payload,
      });
      expect(made.statusCode, made.body).toBe(201);
      return made.json() as { id: string; code: string; status: string };
    };
    const pay = (code: string, payload: Record<string, unknown>) =>
      world.app.inject({ method: 'POST', url: `/api/pay/${code}`, payload });
    const linkOf = async (id: string) =>
      (await send(world.app, { method: 'GET', url: `/api/links/${id}` }, cashier)).json().data;
    const settle = (
      checkoutRequestId: string,
      phoneNumber: string,
      amount = 1500,
      receipt?: string,
    ) =>
      world.app.inject({
        method: 'POST',
        url: CALLBACK_PATH,
        payload: successCallback(checkoutRequestId, { amount, phoneNumber, receipt }),
      });

    it('a one-payment link is paid with only a phone, shows paid with that payment, and refuses a second payer', async () => {
      const link = await aLink();
      expect(link).toMatchObject({
        status: 'active',
        code: expect.stringMatching(/^[a-z2-9]{12}$/),
      });

      const page = await world.app.inject({ url: `/api/pay/${link.code}` });
      expect(page.json()).toEqual({
        success: true,
        data: {
          code: link.code,
          shopName: 'Duka la Mama',
          amount: 1500,
          minAmount: null,
          purpose: 'Kitenge dress',
          reference: 'ORDER-77',
          status: 'active',
        },
      });

      const phone = aPhone();
      const paid = await pay(link.code, { phoneNumber: phone });
      expect(paid.statusCode, paid.body).toBe(200);
      const { transactionId, checkoutRequestId } = paid.json();
      const [prompt] = world.simulator.prompts.list();
      expect(prompt).toMatchObject({ amount: 1500, accountReference: 'ORDER-77' });

      // While the prompt is open, a second payer is told someone is paying, and nothing is sent.
      const meanwhile = await pay(link.code, { phoneNumber: aPhone() });
      expect(meanwhile.statusCode).toBe(409);
      expect(meanwhile.json().code).toBe('LINK_BEING_PAID');

      expect((await settle(checkoutRequestId, `254${phone.slice(1)}`)).statusCode).toBe(200);
      const shown = await linkOf(link.id);
      expect(shown).toMatchObject({ status: 'paid', paidCount: 1, collected: 1500 });
      expect(shown.payments).toEqual([
        expect.objectContaining({ transactionId, status: 'success', amount: 1500 }),
      ]);

      const second = await pay(link.code, { phoneNumber: aPhone() });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ success: false, code: 'LINK_PAID' });
      expect(world.simulator.prompts.list()).toHaveLength(1);

      // The payer's page says paid, and nothing of who paid.
      const after = await world.app.inject({ url: `/api/pay/${link.code}` });
      expect(after.json().data.status).toBe('paid');
      expect(after.body).not.toContain(phone.slice(-6));
    });

    it('two payers at the same moment: one prompt, the other refused', async () => {
      const link = await aLink();
      const answers = await Promise.all([
        pay(link.code, { phoneNumber: aPhone() }),
        pay(link.code, { phoneNumber: aPhone() }),
        pay(link.code, { phoneNumber: aPhone() }),
      ]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409]);
      for (const answer of answers.filter((each) => each.statusCode === 409)) {
        expect(answer.json().code).toMatch(/^LINK_(BEING_PAID|PAID)$/);
      }
      expect(world.simulator.prompts.list()).toHaveLength(1);
    });

    it('a prompt that failed opens the link again', async () => {
      const link = await aLink();
      const first = await pay(link.code, { phoneNumber: aPhone() });
      await world.app.inject({
        method: 'POST',
        url: CALLBACK_PATH,
        payload: failureCallback(first.json().checkoutRequestId, 1032, 'Request cancelled by user'),
      });
      const again = await pay(link.code, { phoneNumber: aPhone() });
      expect(again.statusCode, again.body).toBe(200);
    });

    it('a payer whose cancelled prompt M-PESA later reports paid is recorded paid, beside the second payer', async () => {
      const link = await aLink();
      const [firstPhone, secondPhone] = [aPhone(), aPhone()];
      const msisdn = (phone: string) => `254${phone.slice(1)}`;
      const first = (await pay(link.code, { phoneNumber: firstPhone })).json();
      await world.app.inject({
        method: 'POST',
        url: CALLBACK_PATH,
        payload: failureCallback(first.checkoutRequestId, 1032, 'Request cancelled by user'),
      });
      const second = (await pay(link.code, { phoneNumber: secondPhone })).json();
      expect(
        (await settle(second.checkoutRequestId, msisdn(secondPhone), 1500, 'UAA1111111'))
          .statusCode,
      ).toBe(200);
      // M-PESA then says the first was paid after all: the money moved, and the record says so.
      expect(
        (await settle(first.checkoutRequestId, msisdn(firstPhone), 1500, 'UAA2222222')).statusCode,
      ).toBe(200);
      const stored = await world.app.inject({
        url: `/api/mpesa/transactions/${first.transactionId}`,
      });
      expect(stored.json().data.status).toBe('success');
      const shown = await linkOf(link.id);
      expect(shown.status).toBe('paid');
      expect(shown.paidCount).toBe(2);
      expect(shown.collected).toBe(3000);
    });

    it('a link of many payments with the payer’s amount: at least its minimum', async () => {
      const link = await aLink({ amount: undefined, minAmount: 200, oneOnly: false });
      const below = await pay(link.code, { phoneNumber: aPhone(), amount: 150 });
      expect(below.statusCode).toBe(400);
      expect(below.json()).toMatchObject({ code: 'LINK_AMOUNT', field: 'amount' });
      const none = await pay(link.code, { phoneNumber: aPhone() });
      expect(none.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'amount' });
      for (const amount of [250, 300]) {
        const paid = await pay(link.code, { phoneNumber: aPhone(), amount });
        expect(paid.statusCode, paid.body).toBe(200);
      }
      expect((await linkOf(link.id)).status).toBe('active');
    });

    it('an expired or switched-off link takes no payment, and says so', async () => {
      const expiring = await aLink({ expiresInDays: 1 });
      const link = await aLink();
      const off = await send(
        world.app,
        { method: 'POST', url: `/api/links/${link.id}/off` },
        cashier,
      );
      expect(off.json()).toMatchObject({ status: 'off' });
      const refused = await pay(link.code, { phoneNumber: aPhone() });
      expect([refused.statusCode, refused.json().code]).toEqual([410, 'LINK_OFF']);

      clock = new Date('2026-11-30T09:00:01.000Z');
      const late = await pay(expiring.code, { phoneNumber: aPhone() });
      expect([late.statusCode, late.json().code]).toEqual([410, 'LINK_EXPIRED']);
      expect(world.simulator.prompts.list()).toHaveLength(0);

      const audit = await world.database.db
        .selectFrom('audit_events')
        .select(['action', 'actor', 'target'])
        .where('action', 'in', ['link_created', 'link_switched_off'])
        .execute();
      expect(audit).toContainEqual({
        action: 'link_switched_off',
        actor: STAFF.cashier,
        target: link.id,
      });
    });

    it('a code that is none is not found, in our words', async () => {
      const answer = await pay('nosuchcode22', { phoneNumber: aPhone() });
      expect([answer.statusCode, answer.json().code]).toEqual([404, 'LINK_NOT_FOUND']);
      const page = await world.app.inject({ url: '/api/pay/nosuchcode22' });
      expect(page.statusCode).toBe(404);
    });

    it('bad input gets a clear message, never a 500', async () => {
      const both = await make({
        amount: 10,
        minAmount: 5,
        purpose: 'x',
        reference: 'y',
        oneOnly: true,
      });
      expect(both.statusCode).toBe(400);
      expect(both.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'minAmount' });
      const empty = await make({ amount: 10, purpose: '  ', reference: 'y', oneOnly: true });
      expect(empty.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'purpose' });
      const link = await aLink();
      const wrong = await pay(link.code, { phoneNumber: '12' });
      expect(wrong.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'phoneNumber' });
    });

    it('limits: links per hour per operator, payments per link per minute', async () => {
      for (let i = 0; i < 3; i++) await aLink();
      const fourth = await make({ amount: 10, purpose: 'x', reference: 'y', oneOnly: true });
      expect([fourth.statusCode, fourth.json().code]).toEqual([429, 'LINKS_RATE_LIMITED']);

      await world.database.db.deleteFrom('rate_limits').execute();
      const many = await aLink({ oneOnly: false });
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await pay(many.code, { phoneNumber: aPhone() }));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 429]);
    });

    it('a viewer sees the links but makes none; a stranger sees none', async () => {
      const viewer = await signedIn(world.app, STAFF.viewer);
      expect(
        (await make({ amount: 10, purpose: 'x', reference: 'y', oneOnly: true }, viewer))
          .statusCode,
      ).toBe(403);
      expect((await send(world.app, { method: 'GET', url: '/api/links' }, viewer)).statusCode).toBe(
        200,
      );
      expect((await world.app.inject({ url: '/api/links' })).statusCode).toBe(401);
    });
  });
}
