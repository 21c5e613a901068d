/** A page of a list: the rows shown, and the cursor of the next page only when there is one. */
import { describe, expect, it } from 'vitest';
import { createdPosition, decodeCursor, encodeCursor, pageOf } from './list-cursor.ts';

const ID = '01a2283b01e60000001caefbb801a71848';
const rows = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: `${ID.slice(0, -2)}${String(i).padStart(2, '0')}`,
    created_at: `2026-11-${String(29 - i).padStart(2, '0')}T10:00:00.000Z`,
  }));

describe('a page of a list', () => {
  it('shows `limit` rows and names the next page after the last shown, when one more was read', () => {
    const read = rows(3);
    const { page, nextCursor } = pageOf(read, 2, createdPosition);
    expect(page).toEqual(read.slice(0, 2));
    expect(decodeCursor(nextCursor ?? '')).toEqual({
      createdAt: read[1]!.created_at,
      id: read[1]!.id,
    });
  });

  it('has no next page when no more than `limit` were read', () => {
    expect(pageOf(rows(2), 2, createdPosition)).toEqual({ page: rows(2), nextCursor: null });
    expect(pageOf([], 2, createdPosition)).toEqual({ page: [], nextCursor: null });
  });

  it('reads back only the cursors it writes', () => {
    const position = { createdAt: '2026-11-29T10:00:00.000Z', id: ID };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    expect(decodeCursor(encodeCursor({ ...position, createdAt: '2026-11-29' }))).toBeNull();
    expect(decodeCursor('not a cursor')).toBeNull();
  });
});
