/**
 * Managing operators (the `npm run operator` command line): add, list, change a role, remove. Each
 * refusal is an OperatorError, whose message is a sentence for the person at the terminal.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { nameKey, nameProblem, normaliseName } from './operator-name.ts';
import { hashPassword, passwordProblem } from './password.ts';
import type { OperatorRole } from './roles.ts';
import * as repo from './operators.repository.ts';

export class OperatorError extends Error {
  override name = 'OperatorError';
}

export async function addOperator(
  db: Kysely<Database>,
  input: { name: string; role: OperatorRole; password: string; now: Date },
): Promise<{ name: string; role: OperatorRole }> {
  const problem = nameProblem(input.name) ?? passwordProblem(input.password);
  if (problem) throw new OperatorError(problem);
  const name = normaliseName(input.name);
  const key = nameKey(name);
  if (await repo.findOperatorByKey(db, key)) {
    throw new OperatorError(`An operator named ${name} already exists.`);
  }
  const at = input.now.toISOString();
  await repo.insertOperator(db, {
    id: randomUUID(),
    name,
    name_key: key,
    role: input.role,
    password_hash: await hashPassword(input.password),
    created_at: at,
    updated_at: at,
  });
  return { name, role: input.role };
}

export const listOperators = repo.listOperators;

export async function removeOperator(db: Kysely<Database>, name: string): Promise<void> {
  if (!(await repo.deleteOperator(db, nameKey(name)))) {
    throw new OperatorError(`No operator is named ${normaliseName(name)}.`);
  }
}

export async function changeRole(
  db: Kysely<Database>,
  name: string,
  role: OperatorRole,
  now: Date,
): Promise<void> {
  if (!(await repo.setRole(db, nameKey(name), role, now.toISOString()))) {
    throw new OperatorError(`No operator is named ${normaliseName(name)}.`);
  }
}
