/**
 * Names that look like another's, or look blank, are refused from the owner's screens: invisible
 * characters, a name with no visible letter, letters of two scripts, and look-alikes of another
 * script's or Latin's own (a dotless ı). An API key's name must be visible too. On each database.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { STAFF, addStaff, send, signedIn } from '../../test/operator-session.ts';
import { mixedScriptProblem, skeleton } from './look-alike.ts';
import { INVISIBLE_NAME_MESSAGE, nameProblem } from './operator-name.ts';

/** Names beside "Amina" and "Otieno" that read as theirs, or as nothing. */
const INVISIBLE = ['Amina\u3164', 'Amina\u034F', 'Amina\u2800', '\u3164'];

describe('names that look blank or like another', () => {
  it('refuses invisible characters, and a name without a visible letter or digit', () => {
    for (const name of [
      ...INVISIBLE,
      'Amina\u200B',
      'Amina\uFE0F',
      '\u115F',
      '\uFFA0',
      '-',
      '__',
    ]) {
      expect(nameProblem(name), JSON.stringify(name)).toBe(INVISIBLE_NAME_MESSAGE);
    }
    expect(nameProblem('Mama Mboga 2')).toBeUndefined();
    expect(nameProblem('7')).toBeUndefined();
  });

  it('refuses letters of two scripts, whichever, but not Japanese or Korean as written', () => {
    expect(mixedScriptProblem('\u0555tieno')).toBe(
      'The name mixes letters of different scripts (Armenian, Latin), which can look like another name: type it in one alphabet.',
    );
    expect(mixedScriptProblem('Amina\u10D0')).toContain('Latin, Georgian');
    expect(mixedScriptProblem('\u0410mina')).toContain(
      'mixes Latin letters with Cyrillic or Greek',
    );
    for (const name of [
      'Ольга',
      'Ամինա',
      'さくら 桜 サクラ',
      '김민준 金',
      'José Ñúñez',
      'A1 Till',
    ]) {
      expect(mixedScriptProblem(name), name).toBeUndefined();
    }
  });

  it('gives look-alikes the skeleton of what they look like', () => {
    for (const [alike, like] of [
      ['Am\u0131na', 'Amina'],
      ['\u0555tieno', 'Otieno'],
      ['\u0585tieno', 'otieno'],
      ['\u057D\u0581', 'ug'],
      ['\u0251\u2113', 'al'],
      ['\u0397\u0395\u039D', 'HEN'],
      ['Arni', 'Ami'],
      ['\u1D00\u1D0D\u026A\u0274\u1D00', 'amina'],
    ]) {
      expect(skeleton(alike!), alike).toBe(skeleton(like!));
    }
    expect(skeleton('Amina')).not.toBe(skeleton('Amira'));
  });
});

for (const dialect of DIALECTS) {
  describe(`names from the owner's screens (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let owner: string;

    beforeEach(async () => {
      const clock = new Date('2026-11-25T09:00:00.000Z');
      database = await createTestDatabase(dialect);
      await addStaff(database, clock);
      ({ app } = await createTestApp({
        database,
        now: () => clock,
        env: { HISTORY_ACCESS: 'operators' },
      }));
      owner = await signedIn(app, STAFF.owner);
    });
    afterEach(async () => {
      await app.close();
      await database.destroy();
    });

    const add = (name: string) =>
      send(
        app,
        { method: 'POST', url: '/api/operators', payload: { name, role: 'viewer' } },
        owner,
      );

    it('refuses an operator’s name that looks blank or like Amina’s or Otieno’s', async () => {
      for (const name of INVISIBLE) {
        const answer = await add(name);
        expect(answer.statusCode, JSON.stringify(name)).toBe(400);
        expect(answer.json()).toMatchObject({
          code: 'VALIDATION_ERROR',
          field: 'name',
          message: INVISIBLE_NAME_MESSAGE,
        });
      }
      const dotless = await add('Am\u0131na');
      expect(dotless.statusCode).toBe(409);
      expect(dotless.json()).toMatchObject({
        code: 'OPERATOR_EXISTS',
        message:
          'Am\u0131na looks like Amina, an existing operator: choose a name that cannot be mistaken for it.',
      });
      const armenian = await add('\u0555tieno');
      expect(armenian.statusCode).toBe(400);
      expect(armenian.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
      // A name wholly in Armenian that looks like no one's is a name.
      expect((await add('\u0531\u0574\u056B\u0576\u0561')).statusCode).toBe(201);
      const operators = await database.db.selectFrom('operators').select('name').execute();
      expect(operators).toHaveLength(4);
    });

    it('refuses an API key whose name is blank to the eye', async () => {
      const answer = await send(
        app,
        { method: 'POST', url: '/api/keys', payload: { name: '\u3164', scope: 'payments:read' } },
        owner,
      );
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        field: 'name',
        message:
          'The key’s name must be made of visible characters, with at least one letter or digit.',
      });
      expect(await database.db.selectFrom('api_keys').selectAll().execute()).toEqual([]);
    });
  });
}
