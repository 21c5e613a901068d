/** The SQL of managing operators and of their one-time password links (operators.repository.ts has the rest). */
import { SqliteAdapter, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OperatorRole } from './roles.ts';

type Db = Kysely<Database>;

/** Every operator, for the owner's list and the look-alike check: never their hashes. */
export function listAll(db: Db) {
  return db
    .selectFrom('operators')
    .select((eb) => [
      'id',
      'name',
      'name_key',
      'role',
      'created_at',
      eb('password_hash', '!=', '!').as('password_set'),
    ])
    .orderBy('name_key')
    .execute();
}

/**
 * The owners' ids, their rows locked until the transaction ends on PostgreSQL (`FOR UPDATE`), so
 * that two owners demoting each other at once are counted one after the other: the second then
 * sees one owner left. SQLite runs one writing transaction at a time (db/transact.ts).
 */
export async function lockOwners(trx: Db): Promise<string[]> {
  const postgres = !(trx.getExecutor().adapter instanceof SqliteAdapter);
  const rows = await trx
    .selectFrom('operators')
    .select('id')
    .where('role', '=', 'owner')
    .$if(postgres, (query) => query.forUpdate())
    .execute();
  return rows.map((row) => row.id);
}

/** Ends every session of the operator (signed-in browsers are refused at their next request). */
export async function deleteSessionsOf(trx: Db, operatorId: string): Promise<void> {
  await trx.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).execute();
}

/** Removes the operator, their sessions, their link and their addresses (SQLite enforces no cascade unasked). */
export async function deleteOperatorById(trx: Db, operatorId: string): Promise<void> {
  await deleteSessionsOf(trx, operatorId);
  await trx.deleteFrom('password_links').where('operator_id', '=', operatorId).execute();
  await trx.deleteFrom('operator_addresses').where('operator_id', '=', operatorId).execute();
  await trx.deleteFrom('operators').where('id', '=', operatorId).execute();
}

export async function setRoleById(
  trx: Db,
  operatorId: string,
  role: OperatorRole,
  at: string,
): Promise<void> {
  await trx
    .updateTable('operators')
    .set({ role, updated_at: at })
    .where('id', '=', operatorId)
    .execute();
}

/** Keeps this link as the operator's one: a newer link voids the one before. */
export async function replaceLink(
  trx: Db,
  link: { operator_id: string; token_hash: string; created_at: string; expires_at: string },
): Promise<void> {
  await trx.deleteFrom('password_links').where('operator_id', '=', link.operator_id).execute();
  await trx.insertInto('password_links').values(link).execute();
}

/**
 * Takes the link with this hash if it is still valid: deleted in the same statement that finds
 * it, so that of two uses at once only one gets its operator.
 */
export async function takeLink(
  trx: Db,
  tokenHash: string,
  now: string,
): Promise<{ operator_id: string } | undefined> {
  return trx
    .deleteFrom('password_links')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .returning('operator_id')
    .executeTakeFirst();
}

export async function findOperatorById(trx: Db, operatorId: string) {
  return trx
    .selectFrom('operators')
    .select(['id', 'name', 'role'])
    .where('id', '=', operatorId)
    .executeTakeFirst();
}

export async function setPasswordHash(
  trx: Db,
  operatorId: string,
  passwordHash: string,
  at: string,
): Promise<void> {
  await trx
    .updateTable('operators')
    .set({ password_hash: passwordHash, updated_at: at })
    .where('id', '=', operatorId)
    .execute();
}
