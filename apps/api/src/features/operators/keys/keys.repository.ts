/** The SQL of API keys. Keys are revoked, never deleted, so that the audit trail names them. */
import { SqliteAdapter, type Kysely, type Selectable } from 'kysely';
import type { ApiKeyTable, Database } from '../../../db/schema.ts';

type Db = Kysely<Database>;
export type ApiKeyRow = Selectable<ApiKeyTable>;

export async function insertKey(db: Db, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** Every key, newest first (ids are sortable by time of creation). */
export function listKeys(db: Db): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function findKeyById(db: Db, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

/**
 * Revokes a live key, as the owner `by` (false if it was revoked already: it keeps its first
 * revocation's time and reason).
 */
export async function revokeKey(db: Db, id: string, at: string, by: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at, revoked_reason: 'owner', revoked_by: by })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Revokes every live key the operator made, with why; the keys it revoked. */
export function revokeKeysMadeBy(
  trx: Db,
  operatorId: string,
  revocation: { at: string; reason: 'maker_removed' | 'maker_not_owner'; by: string | null },
) {
  return trx
    .updateTable('api_keys')
    .set({
      revoked_at: revocation.at,
      revoked_reason: revocation.reason,
      revoked_by: revocation.by,
    })
    .where('created_by_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name', 'scope'])
    .execute();
}

/**
 * The role of the operator making a key, read inside the transaction that writes it; on
 * PostgreSQL the row is held (`FOR SHARE`) until it ends, so that removing or demoting them waits
 * for the key and then revokes it with the others. SQLite runs one writing transaction at a time.
 */
export async function lockMakerRole(trx: Db, operatorId: string) {
  const postgres = !(trx.getExecutor().adapter instanceof SqliteAdapter);
  const row = await trx
    .selectFrom('operators')
    .select('role')
    .where('id', '=', operatorId)
    .$if(postgres, (query) => query.forShare())
    .executeTakeFirst();
  return row?.role;
}

export async function touchKey(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}
