/** Which failures are an unavailable database (answered 503) and which are not (a bug: 500, or the client's). */
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

const sqlite = (errcode: number) =>
  Object.assign(new Error('sqlite'), { code: 'ERR_SQLITE_ERROR', errcode });
const postgres = (code: string) => Object.assign(new Error('postgres'), { code });
const socket = (code: string, syscall?: string) =>
  Object.assign(new Error(code), { code, ...(syscall ? { syscall } : {}) });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['SQLite: disk full', sqlite(13)],
    ['SQLite: read-only (extended code SQLITE_READONLY_DBMOVED)', sqlite(8 | (4 << 8))],
    ['SQLite: locked by another process', sqlite(5)],
    ['SQLite: I/O error', sqlite(10)],
    ['PostgreSQL: terminated (57P01)', postgres('57P01')],
    ['PostgreSQL: starting up (57P03)', postgres('57P03')],
    ['PostgreSQL: too many connections (53300)', postgres('53300')],
    ['PostgreSQL: connection failure (08006)', postgres('08006')],
    ['PostgreSQL: statement timeout (57014)', postgres('57014')],
    ['PostgreSQL: a standby (25006)', postgres('25006')],
    ['a refused connection', socket('ECONNREFUSED', 'connect')],
    ['pg: Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['pg: Query read timeout', new Error('Query read timeout')],
    ['pg: pool timeout', new Error('timeout exceeded when trying to connect')],
    ['wrapped as a cause', new Error('migration failed', { cause: postgres('57P01') })],
  ])('%s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['SQLite: a constraint', sqlite(19)],
    ['SQLite: a syntax error', sqlite(1)],
    ['PostgreSQL: a unique violation (23505)', postgres('23505')],
    ['PostgreSQL: a deadlock (40P01)', postgres('40P01')],
    [
      'a client that went away (Node’s aborted request)',
      Object.assign(socket('ECONNRESET'), { statusCode: 400 }),
    ],
    ['a network code with no system call', socket('ECONNRESET')],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error at all', 'text'],
  ])('not: %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('stops at a cause that refers back to itself', () => {
    const error = new Error('loop') as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
