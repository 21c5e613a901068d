/**
 * `npm run db:copy -- --from data/mpesa.sqlite --to postgres://user:password@host:5432/db [--to-schema name]`
 */
import { parseArgs } from 'node:util';
import { createDb } from './create-db.ts';
import { CopyError, copyDatabase } from './copy-database.ts';

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    'to-schema': { type: 'string' },
  },
});

if (!values.from || !values.to) {
  console.error(
    'Usage: npm run db:copy -- --from <sqlite file or URL> --to <postgres://… URL> [--to-schema <schema>]',
  );
  process.exit(2);
}

const source = createDb(values.from);
const target = createDb(values.to, values['to-schema'] ? { schema: values['to-schema'] } : {});
try {
  const counts = await copyDatabase(source, target);
  for (const [table, count] of Object.entries(counts))
    console.log(`${table.padEnd(20)} ${count} rows copied`);
  console.log(`Copied ${source.dialect} → ${target.dialect}.`);
} catch (error) {
  console.error(error instanceof CopyError ? error.message : error);
  process.exitCode = 1;
} finally {
  await source.db.destroy();
  await target.db.destroy();
}
