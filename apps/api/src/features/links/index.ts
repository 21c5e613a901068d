/**
 * Payment links (issue 38): the shop makes a link once (amount, what for, reference, one payment or
 * many, expiry), the payer pays it from `/pay/<code>` by the usual prompt, and the shop sees what
 * each link collected.
 */
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/create-db.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import { authDepsFor, requireAccess } from '../operators/index.ts';
import type { PaymentDeps } from '../payments/index.ts';
import type { ApiFeature } from '../feature.ts';
import type { LinkDeps } from './links.service.ts';
import type { LinkQrDeps } from './links-qr.service.ts';

export type { LinkDeps } from './links.service.ts';
export { linkOfReference } from './link-of-reference.ts';

interface LinksContext {
  config: Config;
  database: DbHandle;
  now: () => Date;
  log: FastifyBaseLogger;
  payments: PaymentDeps;
  money: DarajaMoneyClient | undefined;
}

export function linkDepsFor(context: LinksContext): LinkDeps {
  const { config } = context;
  return {
    db: context.database.db,
    now: context.now,
    log: context.log,
    payments: context.payments,
    shopName: config.businessName,
    limits: config.links,
  };
}

/**
 * What the QR codes need: M-PESA's is made for the till or paybill that takes C2B payments
 * (MPESA_C2B_SHORTCODE), whose payments features/c2b/ records. No setting says whether that
 * shortcode is a till or a paybill: MPESA_TRANSACTION_TYPE, which says it of the shop's prompts,
 * is taken to say it of the shop (CustomerBuyGoodsOnline a till, BG; otherwise a paybill, PB).
 */
export function linkQrDepsFor(context: LinksContext): LinkQrDeps {
  const { config } = context;
  return {
    db: context.database.db,
    now: context.now,
    log: context.log,
    money: context.money,
    mpesaQr: {
      shortcode: config.c2b?.shortcode,
      trxCode: config.mpesa.transactionType === 'CustomerBuyGoodsOnline' ? 'BG' : 'PB',
      merchantName: config.businessName,
    },
    madeQrs: new Map(),
  };
}

export const links: ApiFeature<LinksContext> = {
  routes: async (api, context) => {
    const { linkRoutes } = await import('./links.routes.ts');
    const { config } = context;
    const auth = authDepsFor({ config, db: context.database.db, now: context.now });
    const gate = (role: 'viewer' | 'cashier') => [requireAccess(auth, { role })];
    const { limits, databaseTimeouts } = config;
    await api.register(linkRoutes, {
      deps: linkDepsFor(context),
      qr: linkQrDepsFor(context),
      gates: { viewer: gate('viewer'), cashier: gate('cashier') },
      rateLimit: {
        max: limits.stkPushPerWindow,
        requestsMax: limits.stkPushRequestsPerWindow,
        windowS: limits.stkPushWindowS,
      },
      // As the payment form's (features/payments/index.ts).
      idempotencyKeyAbandonedMs:
        databaseTimeouts.connectMs +
        databaseTimeouts.statementMs +
        databaseTimeouts.busyMs +
        30_000,
      paymentBytes: limits.paymentBodyBytes,
    });
  },
};
