/** Public runtime facts for the web app, and probes for load balancers. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/create-db.ts';
import { logFailure } from '../../db/unavailable.ts';
import { FILE_GONE_MESSAGE } from '../../db/transact.ts';
import { answer, refusals } from '../../openapi/responses.ts';

export interface SystemRoutesOptions {
  config: Config;
  database: DbHandle;
}

/** The instance the routes are registered on (under `/api`), with zod's type provider. */
type SystemApp = Parameters<FastifyPluginAsyncZod>[0];

/** `GET /api/config`: what the web app needs to know about this server. */
function configRoute(app: SystemApp, config: Config): void {
  app.get(
    '/config',
    {
      schema: {
        summary:
          'The settings the web app needs: which M-PESA, the simulator’s address, whom the payer pays',
        tags: ['System'],
        response: {
          200: answer(
            z.object({
              mpesaEnv: z.enum(['simulator', 'sandbox', 'production']),
              simulatorUrl: z.string().nullable(),
              /** Whom the payer pays (BUSINESS_NAME), for the payment form; null when not known. */
              businessName: z.string().nullable(),
              /**
               * The till or paybill whose payments from customers' own menus the history takes
               * (MPESA_C2B_SHORTCODE); null when none: the receipt check is then not offered.
               */
              c2bShortcode: z.string().nullable(),
              /**
               * Whether the history is open to all (HISTORY_ACCESS=open); false: for the shop's
               * people only, so that the web app offers it to no payer.
               */
              historyOpen: z.boolean(),
            }),
            'The settings.',
            {
              simulator: {
                summary: 'Paying through the Daraja simulator',
                value: {
                  mpesaEnv: 'simulator',
                  simulatorUrl: 'http://127.0.0.1:3001',
                  businessName: 'Mama Mboga Groceries',
                  c2bShortcode: '600100',
                  historyOpen: true,
                },
              },
              production: {
                summary: 'Paying through Safaricom',
                value: {
                  mpesaEnv: 'production',
                  simulatorUrl: null,
                  businessName: null,
                  c2bShortcode: null,
                  historyOpen: false,
                },
              },
            },
          ),
          ...refusals([]),
        },
      },
    },
    async () => ({
      mpesaEnv: config.mpesa.env,
      simulatorUrl: config.mpesa.simulatorUrl ?? null,
      businessName: config.businessName ?? null,
      c2bShortcode: config.c2b?.shortcode ?? null,
      historyOpen: config.operators.historyAccess === 'open',
    }),
  );
}

/** `GET /api/health`: liveness. */
function healthRoute(app: SystemApp): void {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness: the process answers',
        tags: ['System'],
        response: {
          200: answer(z.object({ status: z.literal('ok') }), 'The process is up.', {
            ok: { summary: 'Up', value: { status: 'ok' } },
          }),
          ...refusals([]),
        },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}

const notReady = z.object({ status: z.literal('not ready'), reason: z.string() });
const NOT_READY = {
  unreachable: { status: 'not ready', reason: 'database unreachable' },
  fileGone: { status: 'not ready', reason: FILE_GONE_MESSAGE },
  migrations: { status: 'not ready', reason: 'database migrations are pending' },
} as const;

/** Whether the database answers and has every migration run: not ready's reason, or undefined. */
async function notReadyBecause(database: DbHandle) {
  if (database.fileGone?.()) return NOT_READY.fileGone;
  await sql`select 1`.execute(database.db);
  const migrations = await database.migrator.getMigrations();
  const pending = migrations.filter((migration) => migration.executedAt === undefined);
  return pending.length > 0 ? NOT_READY.migrations : undefined;
}

/** `GET /api/ready`: readiness, for load balancers. */
function readyRoute(app: SystemApp, database: DbHandle): void {
  app.get(
    '/ready',
    {
      schema: {
        summary: 'Readiness: the database answers and its migrations have all run',
        tags: ['System'],
        response: {
          200: answer(z.object({ status: z.literal('ready') }), 'Ready for requests.', {
            ready: { summary: 'Ready', value: { status: 'ready' } },
          }),
          ...refusals([], {
            503: {
              schema: notReady,
              examples: {
                unreachable: {
                  summary: 'The database does not answer',
                  value: NOT_READY.unreachable,
                },
                migrations: {
                  summary: 'Migrations have still to run',
                  value: NOT_READY.migrations,
                },
                fileGone: {
                  summary: 'The SQLite file was removed or replaced under the running app',
                  value: NOT_READY.fileGone,
                },
              },
            },
          }),
        },
      },
    },
    async (request, reply) => {
      try {
        const because = await notReadyBecause(database);
        if (because) return reply.code(503).send(because);
        return { status: 'ready' as const };
      } catch (error) {
        // An outage is what this probe is for, said in a line; anything else is a fault of ours.
        logFailure(request.log, error, {
          unavailable: 'not ready: the database is unavailable',
          failed: 'readiness check failed',
        });
        return reply.code(503).send(NOT_READY.unreachable);
      }
    },
  );
}

export const systemRoutes: FastifyPluginAsyncZod<SystemRoutesOptions> = async (
  app,
  { config, database },
) => {
  configRoute(app, config);
  healthRoute(app);
  readyRoute(app, database);
};
