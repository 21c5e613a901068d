import { describe, expect, it } from 'vitest';
import { sortableId } from './sortable-id.ts';

describe('sortableId', () => {
  it('makes ids that differ and sort in the order they were made, across many refills of its random bytes', () => {
    const ids = Array.from({ length: 10_000 }, () => sortableId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{34}$/);
    // The random tails differ too: two instances making ids in the same millisecond do not collide.
    expect(new Set(ids.map((id) => id.slice(18))).size).toBe(ids.length);
  });
});
