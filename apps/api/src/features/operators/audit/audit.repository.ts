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
