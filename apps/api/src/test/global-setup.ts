/**
 * The api project's globalSetup: the migrated database every test database is copied from
 * (template-db.ts), made once for the whole run and handed to each test file; the PostgreSQL
 * template schema is dropped when the run ends.
 */
import type { TestProject } from 'vitest/node';
import {
  dropPostgresTemplate,
  makePostgresTemplate,
  makeSqliteTemplate,
  type DatabaseTemplate,
} from './template-db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL?.trim() || undefined;
  const template: DatabaseTemplate = {
    sqlite: await makeSqliteTemplate(),
    postgres: url ? await makePostgresTemplate(url) : undefined,
  };
  project.provide('databaseTemplate', template);
  return async () => {
    if (url && template.postgres) await dropPostgresTemplate(url, template.postgres);
  };
}
