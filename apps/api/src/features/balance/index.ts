/**
 * The balance: Account Balance asked on demand and on a schedule, its Result, and the day's money
 * beside it (balance.service.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/create-db.ts';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import type { CallbackUrlFor } from '../../callbacks/callback-paths.ts';
import { resultRoute } from '../../callbacks/callback-paths.ts';
import { resultCallback } from '../../callbacks/result-callback.ts';
import { startLoop } from '../../db/background-loop.ts';
import { authDepsFor, requireAccess } from '../operators/index.ts';
import type { ApiFeature } from '../feature.ts';
import * as repo from './balance.repository.ts';
import { askBalance, takeBalanceResult, type BalanceDeps } from './balance.service.ts';

interface BalanceContext {
  config: Config;
  database: DbHandle;
  now: () => Date;
  log: FastifyBaseLogger;
  money: DarajaMoneyClient | undefined;
  callbackUrlFor: CallbackUrlFor;
}

export function balanceDepsFor(context: BalanceContext): BalanceDeps {
  return {
    db: context.database.db,
    now: context.now,
    log: context.log,
    money: context.money,
    callbackUrlFor: context.callbackUrlFor,
    shortcode: context.config.payouts.shortcode,
    promptShortcode: context.config.mpesa.partyB,
    timeZone: context.config.businessTimeZone,
  };
}

/**
 * Asks for the balance unless a reading was asked within `intervalMs` (by a person, or another
 * instance's round): a reading moves no money, so two at once would only be one too many.
 */
export async function balanceRound(deps: BalanceDeps, intervalMs: number): Promise<boolean> {
  if (!deps.money?.canReverse) return false;
  const latest = await repo.latestReading(deps.db);
  const since = deps.now().getTime() - intervalMs;
  if (latest && Date.parse(latest.asked_at) > since) return false;
  await askBalance(deps, null);
  return true;
}

/** The first scheduled reading, soon after start-up: the dashboard has a balance to show. */
const FIRST_ROUND_MS = 3000;

export const balance: ApiFeature<BalanceContext, BalanceContext, 'balance'> = {
  routes: async (api, context) => {
    const { balanceRoutes } = await import('./balance.routes.ts');
    const auth = authDepsFor({ config: context.config, db: context.database.db, now: context.now });
    await api.register(balanceRoutes, {
      deps: balanceDepsFor(context),
      gates: {
        viewer: [requireAccess(auth, { role: 'viewer' })],
        cashier: [requireAccess(auth, { role: 'cashier' })],
      },
    });
  },
  callbacks: {
    balance: {
      route: resultRoute('/balance'),
      handler: (context) =>
        resultCallback(
          {
            summary: 'An Account Balance Result: the shortcode’s accounts',
            description:
              'Daraja posts the Result of an Account Balance query here (docs/daraja-protocol.md §M6): stored as it arrived, whatever it holds, and applied to the reading it answers.',
          },
          ({ raw, ip, log }) => takeBalanceResult({ ...balanceDepsFor(context), log }, { raw, ip }),
        ),
    },
  },
  loops: (context) => {
    const intervalS = context.config.payouts.balanceIntervalS;
    if (intervalS === 0) return [];
    const deps = balanceDepsFor(context);
    const intervalMs = intervalS * 1000;
    return [
      startLoop({
        log: context.log,
        words: {
          unavailable: 'the balance round waits for the database',
          failed: 'the balance round failed',
        },
        firstMs: FIRST_ROUND_MS,
        intervalMs,
        round: async () => {
          await balanceRound(deps, intervalMs - FIRST_ROUND_MS);
        },
      }),
    ];
  },
};
