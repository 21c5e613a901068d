/**
 * The history's page cursor: where the last page ended, as (createdAt, id), the order the list is
 * sorted by. Opaque to clients (base64url of JSON); anything that does not decode to what this
 * server writes is refused, never passed to a query.
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
