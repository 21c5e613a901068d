/** The SQL of operators and their sessions. */
import { SqliteAdapter, type Kysely } from 'kysely';
import type { Insertable } from 'kysely';
import type { Database, OperatorRow, OperatorTable } from '../../db/schema.ts';

type Db = Kysely<Database>;

export async function insertOperator(db: Db, row: Insertable<OperatorTable>): Promise<void> {
  await db.insertInto('operators').values(row).execute();
}

export function findOperatorByKey(db: Db, key: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('name_key', '=', key).executeTakeFirst();
}

/**
 * The operator's password hash, read inside the transaction that opens a session; on PostgreSQL
 * the row is held (`FOR SHARE`) until it ends, so that a password change or a removal waits for
 * it and then ends the new session with the others. SQLite runs one writing transaction at a time.
 */
export async function lockPasswordHash(trx: Db, operatorId: string): Promise<string | undefined> {
  const postgres = !(trx.getExecutor().adapter instanceof SqliteAdapter);
  const row = await trx
    .selectFrom('operators')
    .select('password_hash')
    .where('id', '=', operatorId)
    .$if(postgres, (query) => query.forShare())
    .executeTakeFirst();
  return row?.password_hash;
}

export async function insertSession(
  db: Db,
  session: {
    token_hash: string;
    operator_id: string;
    at: string;
    expires_at: string;
    password_stamp: string;
  },
): Promise<void> {
  await db
    .insertInto('operator_sessions')
    .values({
      token_hash: session.token_hash,
      operator_id: session.operator_id,
      created_at: session.at,
      last_seen_at: session.at,
      expires_at: session.expires_at,
      revoked_at: null,
      password_stamp: session.password_stamp,
    })
    .execute();
}

/**
 * A session that is not revoked, with its operator (and their current password hash). Expiry and
 * the password stamp are the service's to judge.
 */
export function findLiveSession(db: Db, tokenHash: string) {
  return db
    .selectFrom('operator_sessions')
    .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
    .select([
      'operator_sessions.token_hash',
      'operator_sessions.last_seen_at',
      'operator_sessions.expires_at',
      'operator_sessions.password_stamp',
      'operators.password_hash',
      'operators.id as operator_id',
      'operators.name',
      'operators.role',
    ])
    .where('operator_sessions.token_hash', '=', tokenHash)
    .where('operator_sessions.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchSession(db: Db, tokenHash: string, at: string): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ last_seen_at: at })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export async function revokeSession(db: Db, tokenHash: string, at: string): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: at })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Deletes the operator's sessions that can no longer be used: signed out, or past either expiry.
 * Run at each sign-in, so that the table holds about one row per browser signed in.
 */
export async function deleteEndedSessions(
  db: Db,
  operatorId: string,
  ended: { now: string; idleSince: string },
): Promise<void> {
  await db
    .deleteFrom('operator_sessions')
    .where('operator_id', '=', operatorId)
    .where((eb) =>
      eb.or([
        eb('revoked_at', 'is not', null),
        eb('expires_at', '<=', ended.now),
        eb('last_seen_at', '<=', ended.idleSince),
      ]),
    )
    .execute();
}

/** Counts one wrong password for the operator's name (shown to them at their next sign-in). */
export async function countFailedSignIn(db: Db, operatorId: string): Promise<void> {
  await db
    .updateTable('operators')
    .set((eb) => ({ failed_sign_ins: eb('failed_sign_ins', '+', 1) }))
    .where('id', '=', operatorId)
    .execute();
}

/**
 * The wrong passwords counted since the operator last signed in, set back to 0: run in the
 * transaction that opens a session, after `lockPasswordHash` (so that on PostgreSQL a failure
 * counted meanwhile waits, and is counted for the next sign-in, not lost).
 */
export async function takeFailedSignIns(trx: Db, operatorId: string): Promise<number> {
  const row = await trx
    .selectFrom('operators')
    .select('failed_sign_ins')
    .where('id', '=', operatorId)
    .executeTakeFirst();
  const failed = Number(row?.failed_sign_ins ?? 0);
  if (failed > 0) {
    await trx
      .updateTable('operators')
      .set({ failed_sign_ins: 0 })
      .where('id', '=', operatorId)
      .execute();
  }
  return failed;
}

/** Records that the operator signed in from `addressKey`, and forgets addresses unused since `before`. */
export async function rememberAddress(
  trx: Db,
  row: { operatorId: string; addressKey: string; at: string; before: string },
): Promise<void> {
  await trx
    .insertInto('operator_addresses')
    .values({ operator_id: row.operatorId, address_key: row.addressKey, signed_in_at: row.at })
    .onConflict((conflict) =>
      conflict.columns(['operator_id', 'address_key']).doUpdateSet({ signed_in_at: row.at }),
    )
    .execute();
  await trx
    .deleteFrom('operator_addresses')
    .where('operator_id', '=', row.operatorId)
    .where('signed_in_at', '<', row.before)
    .execute();
}

/** Whether the operator signed in from `addressKey` since `since`. */
export async function isKnownAddress(
  db: Db,
  operatorId: string,
  addressKey: string,
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('operator_addresses')
    .select('operator_id')
    .where('operator_id', '=', operatorId)
    .where('address_key', '=', addressKey)
    .where('signed_in_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}
