/**
 * `npm run review`: the payments waiting for a person (flagged for review, or of unknown outcome),
 * each with its amount and the payer's phone number, which the M-PESA statement is searched by.
 * `npm run review -- clear <id> --note "<why>" [--status success|failed|cancelled|timeout]`
 * clears one, keeping its status or settling it as the given one (an unknown outcome needs one).
 * Uses the app's own settings (DATABASE_URL, DATABASE_SCHEMA, DATA_DIR).
 */
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from './config.ts';
import { migrateToLatest, openConfiguredDb } from './db/create-db.ts';
import {
  REVIEW_STATUSES,
  ReviewError,
  clearFlag,
  listForReview,
  type ReviewStatus,
} from './features/review/index.ts';

const USAGE =
  'Usage: npm run review                      (list payments waiting for review)\n' +
  `       npm run review -- clear <id> --note "<why>" [--status ${REVIEW_STATUSES.join('|')}]`;

function usage(): never {
  console.error(USAGE);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { note: { type: 'string' }, status: { type: 'string' } },
  });
} catch {
  usage();
}
const { values, positionals } = parsed;
const [command, id] = positionals;
const status = values.status as ReviewStatus | undefined;
const clearing = command === 'clear' && id !== undefined && positionals.length === 2;
if (command === undefined ? values.note !== undefined || status !== undefined : !clearing) usage();
if (status !== undefined && !REVIEW_STATUSES.includes(status)) usage();

const config = loadConfigOrExit();
const database = openConfiguredDb(config, 1);
try {
  await migrateToLatest(database);
  if (command === 'clear') {
    const row = await clearFlag(database.db, id!, {
      note: values.note ?? '',
      ...(status ? { status } : {}),
      now: new Date(),
    });
    console.log(`Cleared the flag on ${row.id}; its status is ${row.status}.`);
  } else {
    const rows = await listForReview(database.db);
    if (rows.length === 0) console.log('No payments are waiting for review.');
    // The payer's phone in full: the reviewer looks for the payment on the M-PESA statement by
    // phone and amount. This is the operator's own terminal, never a log.
    for (const row of rows) {
      console.log(
        `${row.id}  ${row.created_at}  ${row.status.padEnd(9)}  ${String(row.amount).padStart(7)} KES  ${row.phone_number}  ${row.flagged_reason ?? 'outcome unknown: check the M-PESA statement for this amount from this phone'}`,
      );
    }
  }
} catch (error) {
  console.error(error instanceof ReviewError ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.db.destroy();
}
