/**
 * `npm run operator`: the people who may sign in to the merchant's screens.
 * `npm run operator -- add <name> --role owner|cashier|viewer` (the password is typed, unseen, or
 * read from standard input when it is not a terminal), `list`, `remove <name>`, `role <name> <role>`,
 * `link <name>` (a one-time link that sets their password, for an owner locked out of the web app).
 * Removing an owner, or making them anything else, revokes every API key they made.
 * Each change is recorded in the audit trail as the command line's.
 * Uses the app's own settings (DATABASE_URL, DATABASE_SCHEMA, DATA_DIR).
 *
 * `operatorCommand` is the command with its input and output given, which the tests call in their
 * own process; run as a program, this file gives it the process's.
 */
import { parseArgs } from 'node:util';
import { processIo, settingsOrSay, unexpected, type CommandIo } from './command-io.ts';
import { migrateToLatest, openConfiguredDb } from './db/create-db.ts';
import {
  PasswordMismatch,
  readPassword,
  OPERATOR_ROLES,
  isOperatorRole,
  type OperatorRole,
  OperatorError,
  addOperator,
  changeRole,
  listOperators,
  removeOperator,
  type Actor,
  issueLink,
} from './features/operators/index.ts';

/** The audit trail's name for what this command does. */
const COMMAND: Actor = { actorKind: 'command', actor: null, address: null };

const ROLES = OPERATOR_ROLES.join('|');
const USAGE =
  `Usage: npm run operator -- add <name> --role ${ROLES}   (the password is asked for)\n` +
  '       npm run operator -- list\n' +
  '       npm run operator -- remove <name>\n' +
  `       npm run operator -- role <name> ${ROLES}\n` +
  '       npm run operator -- link <name>   (a one-time link that sets their password)';

/** A key ends with its maker: said when removing or demoting an owner revoked any. */
function keysEnded(count: number): string {
  if (count === 0) return '';
  return count === 1
    ? ' The API key they made is revoked.'
    : ` The ${count} API keys they made are revoked.`;
}

/** Runs `npm run operator -- <args…>`; resolves with the exit code. */
export async function operatorCommand(args: string[], io: CommandIo): Promise<number> {
  const usage = () => {
    io.err(USAGE);
    return 2;
  };
  // A password on the command line stays in the shell's history and in every process listing.
  if (args.some((arg) => arg === '--password' || arg.startsWith('--password='))) {
    io.err(
      'A password is never given on the command line (it would stay in the shell history and be ' +
        'visible to other users in the process list): leave --password out and type it when asked, ' +
        'or pipe it to standard input.',
    );
    return 2;
  }

  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { role: { type: 'string' } } });
  } catch {
    return usage();
  }
  const { values, positionals } = parsed;
  const [command, name, roleArgument] = positionals;
  const counts: Record<string, number> = { add: 2, list: 1, remove: 2, role: 3, link: 2 };
  if (command === undefined || counts[command] !== positionals.length) return usage();
  if ((command === 'add') !== (values.role !== undefined)) return usage();
  const role = command === 'role' ? roleArgument : values.role;
  if (role !== undefined && !isOperatorRole(role)) return usage();

  const config = settingsOrSay(io);
  if (!config) return 1;
  const database = openConfiguredDb(config, 1);
  try {
    await migrateToLatest(database);
    const db = database.db;
    if (command === 'add') {
      const password = await io.readPassword(`Password for ${name!}: `);
      const added = await addOperator(db, {
        name: name!,
        role: role as OperatorRole,
        password,
        now: new Date(),
        by: COMMAND,
        passwordHashCost: config.operators.passwordHashCost,
      });
      io.out(`Added ${added.name} as ${added.role}.`);
    } else if (command === 'remove') {
      const { keysRevoked } = await removeOperator(db, name!, { now: new Date(), by: COMMAND });
      io.out(`Removed ${name!}; their sessions are ended.${keysEnded(keysRevoked)}`);
    } else if (command === 'role') {
      const { keysRevoked } = await changeRole(
        db,
        name!,
        role as OperatorRole,
        new Date(),
        COMMAND,
      );
      io.out(`${name!} is now ${role!}.${keysEnded(keysRevoked)}`);
    } else if (command === 'link') {
      const link = await issueLink(db, name!, { now: new Date(), by: COMMAND });
      io.out(
        `A one-time link for ${link.name}, valid until ${link.expiresAt} (open it on the web app's ` +
          `address; it works once, and their current password keeps working until then):\n${link.path}`,
      );
    } else {
      const rows = await listOperators(db);
      if (rows.length === 0) io.out('No operators yet: add one with npm run operator -- add.');
      for (const row of rows) io.out(`${row.name}  ${row.role.padEnd(7)}  since ${row.created_at}`);
    }
    return 0;
  } catch (error) {
    const known = error instanceof OperatorError || error instanceof PasswordMismatch;
    io.err(known ? error.message : unexpected(error));
    return 1;
  } finally {
    await database.db.destroy();
  }
}

if (import.meta.main)
  process.exitCode = await operatorCommand(process.argv.slice(2), processIo(readPassword));
