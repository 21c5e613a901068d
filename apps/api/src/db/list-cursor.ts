/**
 * A list's page cursor (the history's, money out's, the audit trail's, a webhook's deliveries'):
 * where the last page ended, as (createdAt, id), the order the list is sorted by. Opaque to
 * clients (base64url of JSON); anything that does not decode to what this server writes is
 * refused, never passed to a query.
 */
import { isOwnId } from '../lib/stored-lengths.ts';

export interface ListPosition {
  createdAt: string;
  id: string;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/** The position a cursor names, or null if this server never wrote it. */
export function decodeCursor(cursor: string): ListPosition | null {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [createdAt, id] = value as unknown[];
  if (typeof createdAt !== 'string' || !ISO_INSTANT.test(createdAt)) return null;
  if (typeof id !== 'string' || !isOwnId(id)) return null;
  return { createdAt, id };
}

/**
 * A page of `limit` rows from `rows`, read with `limit + 1` (the one more says a next page
 * exists), and the cursor of that next page: after the page's last row (null on the last page).
 */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  positionOf: (row: Row) => ListPosition,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    page,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(positionOf(last)) : null,
  };
}

/** The position of a row listed newest first by (created_at, id). */
export const createdPosition = (row: { created_at: string; id: string }): ListPosition => ({
  createdAt: row.created_at,
  id: row.id,
});
