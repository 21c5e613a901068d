/**
 * `npm run review`: the payments waiting for a person (flagged for review, or of unknown outcome),
 * each with its amount and the payer's phone number, which the M-PESA statement is searched by.
 * `npm run review -- clear <id> --note "<why>" [--status success|failed|cancelled|timeout]`
 * clears one, keeping its status or settling it as the given one (an unknown outcome needs one).
 * Uses the app's own settings (DATABASE_URL, DATABASE_SCHEMA, DATA_DIR).
 *
 * `reviewCommand` is the command with its input and output given (command-io.ts); run as a
 * program, this file gives it the process's.
 */
import { parseArgs } from 'node:util';
import { processIo, settingsOrSay, unexpected, type CommandIo } from './command-io.ts';
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

/** Runs `npm run review -- <args…>`; resolves with the exit code. */
export async function reviewCommand(args: string[], io: CommandIo): Promise<number> {
  const usage = () => {
    io.err(USAGE);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { note: { type: 'string' }, status: { type: 'string' } },
    });
  } catch {
    return usage();
  }
  const { values, positionals } = parsed;
  const [command, id] = positionals;
  const status = values.status as ReviewStatus | undefined;
  const clearing = command === 'clear' && id !== undefined && positionals.length === 2;
  if (command === undefined ? values.note !== undefined || status !== undefined : !clearing) {
    return usage();
  }
  if (status !== undefined && !REVIEW_STATUSES.includes(status)) return usage();

  const config = settingsOrSay(io);
  if (!config) return 1;
  const database = openConfiguredDb(config, 1);
  try {
    await migrateToLatest(database);
    if (command === 'clear') {
      const row = await clearFlag(database.db, id!, {
        note: values.note ?? '',
        ...(status ? { status } : {}),
        now: new Date(),
      });
      io.out(`Cleared the flag on ${row.id}; its status is ${row.status}.`);
    } else {
      const rows = await listForReview(database.db);
      if (rows.length === 0) io.out('No payments are waiting for review.');
      // The payer's phone in full: the reviewer looks for the payment on the M-PESA statement by
      // phone and amount. This is the operator's own terminal, never a log.
      for (const row of rows) {
        io.out(
          `${row.id}  ${row.created_at}  ${row.status.padEnd(9)}  ${String(row.amount).padStart(7)} KES  ${row.phone_number}  ${row.flagged_reason ?? 'outcome unknown: check the M-PESA statement for this amount from this phone'}`,
        );
      }
    }
    return 0;
  } catch (error) {
    io.err(error instanceof ReviewError ? error.message : unexpected(error));
    return 1;
  } finally {
    await database.db.destroy();
  }
}

if (import.meta.main) process.exitCode = await reviewCommand(process.argv.slice(2), processIo());
