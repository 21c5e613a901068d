import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, createTestDatabase, type TestDatabase } from '../test/test-db.ts';

// Other schemas come and go beside the app's (other deployments on one server, other tests):
// whether the app's migrations have run is asked of its own schema, and their going fails nothing.
describe.skipIf(!TEST_DATABASE_URL)('the app’s schema among others that come and go', () => {
  let database: TestDatabase;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.destroy();
  });

  it('finds its migrations all run while other schemas are made and dropped', async () => {
    let churning = true;
    const churn = (async () => {
      for (let round = 0; churning; round++) {
        const other = `churn_${process.pid}_${round}`;
        await admin.query(`CREATE SCHEMA "${other}"`);
        await admin.query(`CREATE TABLE "${other}".t (id serial primary key, note text)`);
        await admin.query(`DROP SCHEMA "${other}" CASCADE`);
      }
    })();
    try {
      for (let look = 0; look < 150; look++) {
        const migrations = await database.migrator.getMigrations();
        expect(migrations.filter((each) => each.executedAt === undefined)).toEqual([]);
      }
    } finally {
      churning = false;
      await churn;
    }
  });

  it('lists only its own tables, with their columns', async () => {
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "beside_${process.pid}"`);
    await admin.query(`CREATE TABLE IF NOT EXISTS "beside_${process.pid}".transactions (x int)`);
    try {
      const tables = await database.db.introspection.getTables();
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([database.schema]));
      const transactions = tables.find((table) => table.name === 'transactions');
      expect(transactions?.columns.map((column) => column.name)).toContain('checkout_request_id');
      expect(tables.map((table) => table.name)).not.toContain('kysely_migration');
      const all = await database.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(all.map((table) => table.name)).toContain('kysely_migration');
    } finally {
      await admin.query(`DROP SCHEMA "beside_${process.pid}" CASCADE`);
    }
  });
});
