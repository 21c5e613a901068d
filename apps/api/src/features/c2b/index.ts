/**
 * Till and paybill payments (C2B): their URLs registered with M-PESA, its validation and
 * confirmation callbacks, and receipt checks by transaction status.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/create-db.ts';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import { c2bRoute, resultRoute, type CallbackUrlFor } from '../../callbacks/callback-paths.ts';
import type { HistoryGuards } from '../operators/index.ts';
import type { ApiFeature } from '../feature.ts';
import { c2bConfirmationCallback } from './c2b-confirmation.callback.ts';
import { c2bValidationCallback } from './c2b-validation.callback.ts';
import { receiptStatusCallback } from './receipt-status.callback.ts';
import { startC2bRegistration } from './c2b-registration.ts';

export { c2bEventPayload } from './c2b-payments.service.ts';
export { C2bRegistrationError, registerC2b } from './c2b-registration.ts';

interface C2bContext {
  config: Config;
  database: DbHandle;
  now: () => Date;
  log: FastifyBaseLogger;
  money: DarajaMoneyClient | undefined;
  callbackUrlFor: CallbackUrlFor;
  /** Register the URLs with Daraja once listening, when MPESA_C2B_REGISTER=start. */
  registerC2b: boolean;
}

const callbackDeps = ({ config, database, now }: C2bContext) => ({
  db: database.db,
  now,
  settings: config.c2b,
});

/** Till and paybill payments: their URLs registered, M-PESA's validation and confirmation, receipt checks. */
export const c2b: ApiFeature<
  C2bContext,
  C2bContext & { guards: HistoryGuards | undefined },
  'receipt-status' | 'c2b-validation' | 'c2b-confirmation'
> = {
  routes: async (api, context) => {
    const { receiptCheckRoutes } = await import('./receipt-checks.routes.ts');
    await api.register(receiptCheckRoutes, {
      deps: {
        ...callbackDeps(context),
        log: context.log,
        money: context.money,
        callbackUrlFor: context.callbackUrlFor,
      },
      gate: context.guards?.takePayments,
    });
  },
  callbacks: {
    'receipt-status': {
      route: resultRoute('/receipt-status'),
      handler: (context) => receiptStatusCallback(callbackDeps(context)),
    },
    // Daraja refuses to register a URL with the word "mpesa" in it (docs/daraja-protocol.md §M3.1).
    'c2b-validation': {
      route: c2bRoute('/validation'),
      handler: (context) => c2bValidationCallback(callbackDeps(context)),
    },
    'c2b-confirmation': {
      route: c2bRoute('/confirmation'),
      handler: (context) => c2bConfirmationCallback(callbackDeps(context)),
    },
  },
  // In the background, never stopping the app (c2b-registration.ts).
  onListen: ({ config, money, registerC2b, callbackUrlFor, log }) => {
    const settings = config.c2b;
    if (!registerC2b || !money || settings?.register !== 'start') return undefined;
    return startC2bRegistration({ money, settings, callbackUrlFor, log });
  },
};
