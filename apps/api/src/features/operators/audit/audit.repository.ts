/** Reading the audit trail: newest first, a page at a time, by (at, id). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ListPosition } from '../../../db/list-cursor.ts';

/** Up to `limit` lines older than `after` (or the newest), newest first. */
export function listAuditEvents(
  db: Kysely<Database>,
  page: { after: ListPosition | null; limit: number },
) {
  const { after } = page;
  return db
    .selectFrom('audit_events')
    .selectAll()
    .$if(after !== null, (query) =>
      query.where((eb) =>
        eb.or([
          eb('at', '<', after!.createdAt),
          eb.and([eb('at', '=', after!.createdAt), eb('id', '<', after!.id)]),
        ]),
      ),
    )
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .execute();
}

/**
 * What the lines name by id, as an owner knows them: each payment's reference, each webhook
 * endpoint's URL (one removed since is not found). Read here rather than through the payments' and
 * webhooks' features, which the operators' feature does not import: two columns, read only.
 */
export async function namesOf(
  db: Kysely<Database>,
  ids: { payments: string[]; endpoints: string[] },
): Promise<{ payments: Map<string, string>; endpoints: Map<string, string> }> {
  const payments =
    ids.payments.length === 0
      ? []
      : await db
          .selectFrom('transactions')
          .select(['id', 'reference as name'])
          .where('id', 'in', ids.payments)
          .execute();
  const endpoints =
    ids.endpoints.length === 0
      ? []
      : await db
          .selectFrom('webhook_endpoints')
          .select(['id', 'url as name'])
          .where('id', 'in', ids.endpoints)
          .execute();
  const byId = (rows: { id: string; name: string }[]) =>
    new Map(rows.map(({ id, name }) => [id, name]));
  return { payments: byId(payments), endpoints: byId(endpoints) };
}
