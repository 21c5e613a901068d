import { sql, type Kysely } from 'kysely';

/**
 * A key ends with its maker: removing the owner who made a key, or making them anything
 * but an owner, revokes it. For that and for the keys' list, `api_keys` gains:
 * - `created_by_id`: the maker's operator id (`created_by` is their name, which a later operator
 *   may take again);
 * - `revoked_reason`: `owner` (an owner revoked it), `maker_removed` or `maker_not_owner`;
 * - `revoked_by`: the owner who revoked it, or whose change of its maker did (null: the server's
 *   command line, or a revocation from before this migration).
 *
 * Keys made before it get their maker's id from the name they were made under, if the operator of
 * that name was there when the key was made. A live key whose maker is no longer an owner is the
 * defect this fixes, so it is revoked here, with a line in the audit trail as the server's own
 * (`command`).
 */
// Migrations are frozen in time: the lengths and the words are written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite adds one at a time.
  await db.schema.alterTable('api_keys').addColumn('created_by_id', 'varchar(64)').execute();
  await db.schema.alterTable('api_keys').addColumn('revoked_reason', 'varchar(16)').execute();
  await db.schema.alterTable('api_keys').addColumn('revoked_by', 'varchar(64)').execute();

  // By name, from an operator who was there when the key was made: a later operator who took the
  // name of one removed did not make the removed one's keys.
  await sql`update api_keys set created_by_id =
    (select operators.id from operators where operators.name = api_keys.created_by
      and operators.created_at <= api_keys.created_at)`.execute(db);
  await sql`update api_keys set revoked_reason = 'owner' where revoked_at is not null`.execute(db);

  const { rows } = await sql<{
    id: string;
    name: string;
    scope: string;
    created_by: string;
    role: string | null;
  }>`select api_keys.id, api_keys.name, api_keys.scope, api_keys.created_by, operators.role
    from api_keys left join operators on operators.id = api_keys.created_by_id
    where api_keys.revoked_at is null
      and (operators.role is null or operators.role <> 'owner')
    order by api_keys.id`.execute(db);
  const at = new Date().toISOString();
  for (const key of rows) {
    const reason = key.role === null ? 'maker_removed' : 'maker_not_owner';
    const why = key.role === null ? 'was removed' : `is no longer an owner (now ${key.role})`;
    await sql`update api_keys set revoked_at = ${at}, revoked_reason = ${reason}
      where id = ${key.id}`.execute(db);
    await sql`insert into audit_events (id, at, actor_kind, actor, action, target, detail, address)
      values (${`014-${key.id}`.slice(0, 64)}, ${at}, 'command', null, 'key_revoked',
        ${key.name}, ${`scope ${key.scope}; its maker ${key.created_by} ${why}`.slice(0, 1200)},
        null)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('revoked_by').execute();
  await db.schema.alterTable('api_keys').dropColumn('revoked_reason').execute();
  await db.schema.alterTable('api_keys').dropColumn('created_by_id').execute();
}
