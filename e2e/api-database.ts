/** The API's own database, for browser tests that write the history straight in. */
import type { Kysely } from 'kysely';
import { createDb } from '../apps/api/src/db/create-db.ts';
import type { Database } from '../apps/api/src/db/schema.ts';
import { stack } from './stack.ts';

/** Opens the database the browser tests' API runs on while `use` runs (making dozens of payments through the simulator would take minutes). */
export async function withApiDatabase<T>(use: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const { db } = createDb(stack().databaseFile);
  try {
    return await use(db);
  } finally {
    await db.destroy();
  }
}
