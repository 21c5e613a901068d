/**
 * Payment links (issue 38): the shop makes a link once (amount, what for, reference, one payment or
 * many, expiry), the payer pays it from `/pay/<code>` by the usual prompt, and the shop sees what
 * each link collected.
 */
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/create-db.ts';
import type { FastifyBaseLogger } from 'fastify';
import { authDepsFor, requireAccess } from '../operators/index.ts';
import type { PaymentDeps } from '../payments/index.ts';
import type { ApiFeature } from '../feature.ts';
import type { LinkDeps } from './links.service.ts';

export type { LinkDeps } from './links.service.ts';
export { linkOfReference } from './link-of-reference.ts';

interface LinksContext {
  config: Config;
  database: DbHandle;
  now: () => Date;
  log: FastifyBaseLogger;
  payments: PaymentDeps;
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

export const links: ApiFeature<LinksContext> = {
  routes: async (api, context) => {
    const { linkRoutes } = await import('./links.routes.ts');
    const { config } = context;
    const auth = authDepsFor({ config, db: context.database.db, now: context.now });
    const gate = (role: 'viewer' | 'cashier') => [requireAccess(auth, { role })];
    const { limits, databaseTimeouts } = config;
    await api.register(linkRoutes, {
      deps: linkDepsFor(context),
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
