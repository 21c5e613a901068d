/**
 * The bench's PostgreSQL reference: a bare Fastify 5 route that answers from `SELECT 1` through a
 * `pg` pool with the app's own settings (db/postgres-pool.ts, the default pool size and timeouts),
 * as fast as anything can answer from PostgreSQL on this machine. Arguments: the port, the URL.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { postgresPoolConfig } from '../../apps/api/src/db/postgres-pool.ts';

const pool = new pg.Pool(
  postgresPoolConfig(process.argv[3]!, {
    poolSize: Number(process.env.DATABASE_POOL_SIZE || 10),
    timeouts: { connectMs: 5_000, statementMs: 10_000 },
  }),
);
const app = Fastify({ logger: false });
app.get('/', async () => {
  const { rows } = await pool.query<{ one: number }>('select 1 as one');
  return { one: rows[0]!.one };
});
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
