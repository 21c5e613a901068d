/**
 * Managing operators, for the `npm run operator` command line and the owner's screens alike: add,
 * list, change a role, remove. Each refusal is an OperatorError, whose message is a sentence for
 * the person at the terminal or the screen, and whose `kind` the routes answer by.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuditActorKind } from '@mpesa/shared/contract-admin';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import { LAST_OWNER_MESSAGE } from './owner-refusals.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { revokeKeysOfMaker } from './keys/keys.service.ts';
import { mixedScriptProblem, skeleton } from './look-alike.ts';
import { nameKey, nameProblem, normaliseName } from './operator-name.ts';
import { NO_PASSWORD, hashPassword, passwordProblem } from '../../lib/password.ts';
import type { OperatorRole } from './roles.ts';
import * as manage from './manage.repository.ts';
import * as repo from './operators.repository.ts';

export type OperatorErrorKind = 'name' | 'password' | 'exists' | 'not_found' | 'last_owner';

export class OperatorError extends Error {
  override name = 'OperatorError';
  readonly kind: OperatorErrorKind;
  constructor(message: string, kind: OperatorErrorKind) {
    super(message);
    this.kind = kind;
  }
}

/** Who did it, for the audit trail: an operator from the web app, or the server's command line. */
export interface Actor {
  actorKind: Extract<AuditActorKind, 'operator' | 'command'>;
  actor: string | null;
  address: string | null;
}

/**
 * The operator named `name` (as names are compared), or a not_found OperatorError. A name no
 * operator can have (a control character, which PostgreSQL text refuses when it is NUL) is never
 * sent to the database.
 */
export async function findNamed(db: Kysely<Database>, name: string) {
  const row = nameProblem(name) ? undefined : await repo.findOperatorByKey(db, nameKey(name));
  if (!row) throw new OperatorError(`No operator is named ${normaliseName(name)}.`, 'not_found');
  return row;
}

/** Why `name` cannot be a new operator's among `existing`, as an OperatorError, or undefined. */
function nameRefusal(
  name: string,
  existing: readonly { name: string; name_key: string }[],
): OperatorError | undefined {
  const problem = nameProblem(name) ?? mixedScriptProblem(normaliseName(name));
  if (problem) return new OperatorError(problem, 'name');
  const normal = normaliseName(name);
  const key = nameKey(normal);
  if (existing.some((each) => each.name_key === key)) {
    return new OperatorError(`An operator named ${normal} already exists.`, 'exists');
  }
  const looksLike = existing.find((each) => skeleton(each.name) === skeleton(normal));
  if (looksLike) {
    return new OperatorError(
      `${normal} looks like ${looksLike.name}, an existing operator: choose a name that cannot be mistaken for it.`,
      'exists',
    );
  }
  return undefined;
}

/**
 * Adds an operator. With `password` null (the owner's screens) they have none that works until
 * they use their one-time link (password-links.service.ts).
 */
export async function addOperator(
  db: Kysely<Database>,
  input: {
    name: string;
    role: OperatorRole;
    password: string | null;
    now: Date;
    by?: Actor;
    /** scrypt's log2 N (PASSWORD_HASH_COST); the default's when not given. */
    passwordHashCost?: number;
  },
): Promise<{ id: string; name: string; role: OperatorRole }> {
  const existing = await manage.listAll(db);
  const refused = nameRefusal(input.name, existing);
  if (refused) throw refused;
  const problem = input.password === null ? undefined : passwordProblem(input.password);
  if (problem) throw new OperatorError(problem, 'password');
  const name = normaliseName(input.name);
  const at = input.now.toISOString();
  const id = randomUUID();
  const passwordHash =
    input.password === null
      ? NO_PASSWORD
      : await hashPassword(input.password, input.passwordHashCost);
  await transact(db, async (trx) => {
    await repo.insertOperator(trx, {
      id,
      name,
      name_key: nameKey(name),
      role: input.role,
      password_hash: passwordHash,
      created_at: at,
      updated_at: at,
    });
    if (input.by) {
      await recordAudit(trx, {
        ...input.by,
        at: input.now,
        action: 'operator_added',
        target: name,
        detail: auditDetail.added(input.role),
      });
    }
  });
  return { id, name, role: input.role };
}

/** Every operator, with whether they have set a password yet. */
export async function listOperators(db: Kysely<Database>) {
  const rows = await manage.listAll(db);
  return rows.map(({ name, role, created_at, password_set }) => ({
    name,
    role,
    created_at,
    passwordSet: Boolean(password_set),
  }));
}

/**
 * Changes a role or removes an operator, inside one transaction that holds the owners' rows, so
 * that the shop never loses its last owner, even to two owners demoting each other at once. An
 * owner removed or made anything else loses every key they made in the same transaction.
 */
async function changeOperator(
  db: Kysely<Database>,
  name: string,
  change: { role: OperatorRole | null; now: Date; by?: Actor | undefined },
): Promise<{ name: string; keysRevoked: number }> {
  return transact(db, async (trx) => {
    const owners = await manage.lockOwners(trx);
    const row = await findNamed(trx, name);
    const losesOwner = row.role === 'owner' && change.role !== 'owner';
    if (losesOwner && owners.filter((id) => id !== row.id).length === 0) {
      throw new OperatorError(LAST_OWNER_MESSAGE, 'last_owner');
    }
    const at = change.now.toISOString();
    if (change.role === null) await manage.deleteOperatorById(trx, row.id);
    else await manage.setRoleById(trx, row.id, change.role, at);
    if (change.by) {
      await recordAudit(trx, {
        ...change.by,
        at: change.now,
        action: change.role === null ? 'operator_removed' : 'operator_role_changed',
        target: row.name,
        detail:
          change.role === null
            ? auditDetail.removed(row.role)
            : auditDetail.roleChanged(row.role, change.role),
      });
    }
    // Their keys end with them, in this same transaction: no instance sees them working after.
    const keysRevoked = await revokeKeysOfMaker(trx, row, change);
    return { name: row.name, keysRevoked };
  });
}

/** Removes an operator, every session of theirs and every key they made; `keysRevoked` counts those. */
export function removeOperator(
  db: Kysely<Database>,
  name: string,
  options: { now: Date; by?: Actor } = { now: new Date() },
): Promise<{ name: string; keysRevoked: number }> {
  return changeOperator(db, name, { role: null, now: options.now, by: options.by });
}

export function changeRole(
  db: Kysely<Database>,
  name: string,
  role: OperatorRole,
  now: Date,
  by?: Actor,
): Promise<{ name: string; keysRevoked: number }> {
  return changeOperator(db, name, { role, now, by });
}
