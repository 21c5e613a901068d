/**
 * One-time links that set an operator's password (docs/decisions/003-operator-sessions.md): the
 * token is 32 random bytes, sent once (in the link's `#`, which never reaches a server's log); the
 * database keeps its SHA-256, one link per operator, for 24 hours. Using it sets the password,
 * deletes the link and ends every session of the operator, in one transaction.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PasswordLink } from '@mpesa/shared/contract-admin';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { tooManySignIns, validationError } from '../../errors.ts';
import { passwordLinkInvalid } from './owner-refusals.ts';
import { countHit, deleteEndedWindows, uncountHit } from '../../limits/rate-limit.repository.ts';
import { findNamed, type Actor } from './operators.service.ts';
import { hashPassword, passwordProblem } from '../../lib/password.ts';
import { hashToken } from './sessions.service.ts';
import * as manage from './manage.repository.ts';

export const LINK_VALID_MS = 24 * 60 * 60 * 1000;

/** The web app's page that reads the token (after `#`) and asks for the new password. */
export const linkPath = (token: string) => `/set-password#${token}`;

/**
 * A new link for the operator `name`, replacing any earlier one. Their current password keeps
 * working until the link is used.
 */
export async function issueLink(
  db: Kysely<Database>,
  name: string,
  options: { now: Date; by?: Actor },
): Promise<PasswordLink> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(options.now.getTime() + LINK_VALID_MS);
  return transact(db, async (trx) => {
    const operator = await findNamed(trx, name);
    await manage.replaceLink(trx, {
      operator_id: operator.id,
      token_hash: hashToken(token),
      created_at: options.now.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
    if (options.by) {
      await recordAudit(trx, {
        ...options.by,
        at: options.now,
        action: 'password_link_issued',
        target: operator.name,
      });
    }
    return { name: operator.name, path: linkPath(token), expiresAt: expiresAt.toISOString() };
  });
}

/** What the counters of attempts to use a link start with. */
const PREFIX = 'set-password|';

export interface SetPasswordDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Failed attempts allowed per address in each window (as for sign-ins). */
  limit: { perAddress: number; windowS: number };
  /** scrypt's log2 N for the new password (PASSWORD_HASH_COST). */
  passwordHashCost: number;
}

/**
 * Sets the password of the link's operator. Attempts count against the address as failed
 * sign-ins do (a token cannot be guessed, but nobody gets to try); one that succeeds is taken
 * back off. An unknown, used or expired token gets one answer: PASSWORD_LINK_INVALID.
 */
export async function setPasswordByLink(
  deps: SetPasswordDeps,
  input: { token: string; password: string; addressKey: string; address: string },
): Promise<{ name: string }> {
  const { db, limit } = deps;
  const now = deps.now();
  const windowMs = limit.windowS * 1000;
  const windowIndex = Math.floor(now.getTime() / windowMs);
  const key = `${PREFIX}address|${input.addressKey}`;
  if ((await countHit(db, key, windowIndex)) > limit.perAddress) {
    throw tooManySignIns(Math.ceil(((windowIndex + 1) * windowMs - now.getTime()) / 1000));
  }
  await deleteEndedWindows(db, PREFIX, windowIndex);
  const problem = passwordProblem(input.password);
  if (problem) throw validationError(problem, 'password');
  // Hashed before the transaction, which must only wait on the database (db/transact.ts).
  const passwordHash = await hashPassword(input.password, deps.passwordHashCost);
  const name = await transact(db, async (trx) => {
    const link = await manage.takeLink(trx, hashToken(input.token), now.toISOString());
    const operator = link && (await manage.findOperatorById(trx, link.operator_id));
    if (!operator) throw passwordLinkInvalid();
    await manage.setPasswordHash(trx, operator.id, passwordHash, now.toISOString());
    await manage.deleteSessionsOf(trx, operator.id);
    await recordAudit(trx, {
      at: now,
      // The link is the operator's, as their password is: its holder is taken to be them, as one
      // who signs in with their password is (docs/decisions/003-operator-sessions.md).
      actorKind: 'operator',
      actor: operator.name,
      action: 'password_set',
      target: operator.name,
      detail: auditDetail.oneTimeLink,
      address: input.address,
    });
    return operator.name;
  });
  await uncountHit(db, key, windowIndex);
  return { name };
}
