/** Public runtime facts for the web app, and probes for load balancers. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { DbHandle } from '../db/create-db.ts';

export interface SystemRoutesOptions {
  config: Config;
  database: DbHandle;
}

export const systemRoutes: FastifyPluginAsyncZod<SystemRoutesOptions> = async (
  app,
  { config, database },
) => {
  app.get(
    '/config',
    {
      schema: {
        response: {
          200: z.object({
            mpesaEnv: z.enum(['simulator', 'sandbox', 'production']),
            simulatorUrl: z.string().nullable(),
            /** Whom the payer pays (BUSINESS_NAME), for the payment form; null when not known. */
            businessName: z.string().nullable(),
          }),
        },
      },
    },
    async () => ({
      mpesaEnv: config.mpesa.env,
      simulatorUrl: config.mpesa.simulatorUrl ?? null,
      businessName: config.businessName ?? null,
    }),
  );

  app.get('/health', async () => ({ status: 'ok' }));

  app.get('/ready', async (request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      const migrations = await database.migrator.getMigrations();
      const pending = migrations.filter((migration) => migration.executedAt === undefined);
      if (pending.length > 0) {
        return reply
          .code(503)
          .send({ status: 'not ready', reason: 'database migrations are pending' });
      }
      return { status: 'ready' };
    } catch (error) {
      request.log.error({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'not ready', reason: 'database unreachable' });
    }
  });
};
