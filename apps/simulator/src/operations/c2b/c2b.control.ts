/**
 * C2B's part of the control API (/_sim/c2b/), docs/daraja-protocol.md §M3.6: what Safaricom sets
 * for a shortcode by email (external validation, here also how long the simulator waits for the
 * merchant's answer), the URLs deleted as in the portal, the payments, and a payment made from the
 * virtual phone's menu, which takes the same path as Daraja's simulate.
 */
import { z } from 'zod';
import { SHORTCODE } from '../../money/accounts.ts';
import { redactUrl } from '../../redact.ts';
import { phoneParam } from '../../routes/phone-param.ts';
import { amountOf } from '../stk/validation.ts';
import type { ControlApp } from '../operation.ts';
import type { C2bBook } from './c2b-book.ts';
import type { C2bPayment, C2bShortcode, Registration } from './c2b-kept.ts';
import type { C2bPayments } from './payments.ts';
import { MAX_BILL_REF } from './validation.ts';

export const SHORTCODE_RULE = 'must be 5 to 7 digits';
export const TIMEOUT_RULE = 'must be 100 to 600000 milliseconds, or null';
export const AMOUNT_RULE = 'must be whole shillings from 1 to 250000';
export const WRONG_PIN = 'Wrong PIN: nothing was paid';

const shortcodeParams = z.object({ shortcode: z.string().regex(SHORTCODE, SHORTCODE_RULE) });

const shortcodeBody = z
  .object({
    externalValidation: z.boolean().optional(),
    validationTimeoutMs: z
      .number({ error: TIMEOUT_RULE })
      .int(TIMEOUT_RULE)
      .min(100, TIMEOUT_RULE)
      .max(600_000, TIMEOUT_RULE)
      .nullable()
      .optional(),
  })
  .strict();

const payBody = z
  .object({
    msisdn: phoneParam,
    shortcode: z.string().regex(SHORTCODE, SHORTCODE_RULE),
    /** A paybill's account number; none: a till (Buy Goods). */
    account: z.string().min(1).max(MAX_BILL_REF).optional(),
    amount: z.union([z.number(), z.string()]).refine((value) => amountOf(value) !== null, {
      message: AMOUNT_RULE,
    }),
    pin: z.string().max(12),
  })
  .strict();

/** A registration as the control API shows it: the URLs' secrets masked (redact.ts). */
const shownRegistration = (registration: Registration | null) =>
  registration && {
    ...registration,
    confirmationUrl: redactUrl(registration.confirmationUrl),
    validationUrl: redactUrl(registration.validationUrl),
  };

export const shownShortcode = (shortcode: C2bShortcode) => ({
  ...shortcode,
  registration: shownRegistration(shortcode.registration),
});

export const shownPayment = (payment: C2bPayment) => ({
  ...payment,
  registration: shownRegistration(payment.registration),
});

export function c2bControlRoutes(
  app: ControlApp,
  { book, payments, pin }: { book: C2bBook; payments: C2bPayments; pin: string },
) {
  app.get('/c2b', async () => ({
    shortcodes: book.shortcodes().map(shownShortcode),
    payments: book.payments().slice(0, 100).map(shownPayment),
  }));

  app.get(
    '/c2b/payments/:transId',
    { schema: { params: z.object({ transId: z.string().min(1).max(20) }) } },
    async (request, reply) => {
      const payment = book.payment(request.params.transId);
      return payment ? shownPayment(payment) : reply.code(404).send({ error: 'No such payment' });
    },
  );

  app.put(
    '/c2b/shortcodes/:shortcode',
    { schema: { params: shortcodeParams, body: shortcodeBody } },
    async (request) => shownShortcode(book.setShortcode(request.params.shortcode, request.body)),
  );

  app.delete(
    '/c2b/shortcodes/:shortcode/urls',
    { schema: { params: shortcodeParams } },
    async (request, reply) => {
      const known = book.unregister(request.params.shortcode);
      return known ? reply.code(204).send() : reply.code(404).send({ error: 'No such shortcode' });
    },
  );

  app.post('/c2b/pay', { schema: { body: payBody } }, async (request, reply) => {
    const { msisdn, shortcode, account, amount } = request.body;
    if (request.body.pin !== pin) return reply.code(400).send({ error: WRONG_PIN });
    const payment = payments.pay(
      {
        shortCode: shortcode,
        commandId: account === undefined ? 'CustomerBuyGoodsOnline' : 'CustomerPayBillOnline',
        amount: amountOf(amount)!,
        msisdn,
        billRefNumber: account ?? '',
      },
      'phone',
    );
    return shownPayment(payment);
  });
}
