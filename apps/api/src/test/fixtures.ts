/**
 * Daraja messages exactly as they travel: a verbatim copy of the project's shared fixtures
 * (../shared/daraja/fixtures), kept in the repository so that a clone on its own can run the tests.
 */
import fs from 'node:fs';
import path from 'node:path';

export const FIXTURES_DIR = path.join(import.meta.dirname, 'daraja-fixtures');

export function fixtureText(name: string): string {
  return fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8');
}

export function fixture<T = unknown>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}
