/**
 * Sign-in, the session it opens, and sign-out (docs/decisions/003-operator-sessions.md; the
 * sign-in limits are docs/decisions/005-sign-in-limits.md). A
 * session's token is 32 random bytes sent once, in the cookie; the database keeps its SHA-256 and
 * both expiries, so every instance sees a sign-out at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import type { Database, OperatorRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { signInFailed } from '../../errors.ts';
import { uncountSlidingHit } from '../../limits/rate-limit.repository.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import { nameKey } from './operator-name.ts';
import {
  countSignIn,
  KNOWN_ADDRESS_MS,
  usableName,
  type Counted,
  type SignInLimit,
} from './sign-in-limits.ts';
import { dummyHash, verifyPassword } from '../../lib/password.ts';
import type { OperatorRole } from './roles.ts';
import * as repo from './operators.repository.ts';

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
  /** The sign-in limits (docs/decisions/005-sign-in-limits.md). */
  signInLimit: SignInLimit;
  /** scrypt's log2 N for the dummy hash an unknown name is verified against (PASSWORD_HASH_COST). */
  passwordHashCost: number;
}

export interface SessionDeps {
  db: Kysely<Database>;
  now: () => Date;
  sessions: SessionSettings;
}

export interface SignedIn {
  operatorId: string;
  name: string;
  role: OperatorRole;
}

/** What a sign-in opens, and the wrong passwords for the name since the operator last signed in. */
export interface OpenedSession extends SignedIn {
  token: string;
  expiresAt: Date;
  failedSignIns: number;
}

/** last_seen_at is written at most this often: not on every request. */
const TOUCH_EVERY_MS = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * What a session is bound to: the SHA-256 of the password hash it was opened with (not the hash
 * itself, which the sessions table need not hold a second copy of).
 */
const passwordStamp = (passwordHash: string) => hashToken(passwordHash);

/** A name and password checked, and what opening its session needs. */
export interface Verified {
  operator: { id: string; name: string; role: OperatorRole };
  /** The hash the password was verified against: the session is opened only if it is still the operator's. */
  passwordHash: string;
  /** Taken back off when the session opens: only failures count. */
  counted: Counted[];
  now: Date;
  address: string | null;
  addressKey: string;
}

/**
 * Checks a name and password and opens a session. Every failure is the same 401, after the same
 * work (an unknown name is checked against a dummy hash). Failures count against the name from
 * this address, the address, and the name from every address, each over a sliding window; past
 * either of the first two, this address is refused 429; past the third, only an address the
 * operator has signed in from is let in. Guesses from one address never hold another back.
 */
export async function signIn(
  deps: SessionDeps,
  input: { name: string; password: string; addressKey: string; address?: string },
): Promise<OpenedSession> {
  return openSession(deps, await verifySignIn(deps, input));
}

/** The first step of a sign-in: the limits, then the password. Throws 429 or 401. */
export async function verifySignIn(
  deps: SessionDeps,
  input: { name: string; password: string; addressKey: string; address?: string },
): Promise<Verified> {
  const { db } = deps;
  const now = deps.now();
  const address = input.address ?? null;
  let found: Promise<OperatorRow | undefined> | undefined;
  const findOperator = () =>
    (found ??= usableName(input.name)
      ? repo.findOperatorByKey(db, nameKey(input.name))
      : Promise.resolve(undefined));
  const counted = await countSignIn(deps, input, findOperator);

  const operator = await findOperator();
  const cost = deps.sessions.passwordHashCost;
  const stored = operator?.password_hash ?? (await dummyHash(cost));
  const matches = await verifyPassword(input.password, stored, cost);
  if (!operator || !matches) {
    if (operator) await repo.countFailedSignIn(db, operator.id);
    // The name only if it is an operator's: what was typed may be a password, typed in the wrong field.
    await recordAudit(db, {
      at: now,
      actorKind: 'anonymous',
      actor: operator?.name ?? null,
      action: 'sign_in_failed',
      address,
    });
    throw signInFailed();
  }
  return {
    operator,
    passwordHash: stored,
    counted,
    now,
    address,
    addressKey: input.addressKey,
  };
}

/**
 * The second step: opens the session, bound to the password verified, and records the sign-in
 * (with the address it came from, and the wrong passwords counted since the last one, taken), in
 * one transaction, only if the operator still exists with that password (one removed, or whose
 * password changed, while it was being checked gets the same 401 as a wrong password).
 */
export async function openSession(deps: SessionDeps, verified: Verified): Promise<OpenedSession> {
  const { db, sessions } = deps;
  const { operator, now, address } = verified;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + sessions.maxMs);
  const opened = await transact(db, async (trx) => {
    if ((await repo.lockPasswordHash(trx, operator.id)) !== verified.passwordHash) {
      await recordAudit(trx, {
        at: now,
        actorKind: 'anonymous',
        actor: operator.name,
        action: 'sign_in_failed',
        detail: auditDetail.signInRace,
        address,
      });
      return undefined;
    }
    await repo.deleteEndedSessions(trx, operator.id, {
      now: now.toISOString(),
      idleSince: new Date(now.getTime() - sessions.idleMs).toISOString(),
    });
    await repo.insertSession(trx, {
      token_hash: hashToken(token),
      operator_id: operator.id,
      at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      password_stamp: passwordStamp(verified.passwordHash),
    });
    if (verified.addressKey.length <= MAX_LENGTH.ipAddress) {
      await repo.rememberAddress(trx, {
        operatorId: operator.id,
        addressKey: verified.addressKey,
        at: now.toISOString(),
        before: new Date(now.getTime() - KNOWN_ADDRESS_MS).toISOString(),
      });
    }
    const failedSignIns = await repo.takeFailedSignIns(trx, operator.id);
    await recordAudit(trx, {
      at: now,
      actorKind: 'operator',
      actor: operator.name,
      action: 'sign_in',
      address,
    });
    return { failedSignIns };
  });
  if (!opened) throw signInFailed();
  for (const { key, windowIndex } of verified.counted)
    await uncountSlidingHit(db, key, windowIndex);
  return {
    token,
    expiresAt,
    operatorId: operator.id,
    name: operator.name,
    role: operator.role,
    failedSignIns: opened.failedSignIns,
  };
}

/** The operator signed in with `token`, or undefined if it is unknown, revoked or expired. */
export async function sessionFor(
  deps: SessionDeps,
  token: string | undefined,
): Promise<SignedIn | undefined> {
  if (!token || token.length > 100) return undefined;
  const tokenHash = hashToken(token);
  const row = await repo.findLiveSession(deps.db, tokenHash);
  // Opened with a password that is no longer the operator's (or before sessions were stamped).
  if (!row || row.password_stamp !== passwordStamp(row.password_hash)) return undefined;
  const now = deps.now().getTime();
  const lastSeen = Date.parse(row.last_seen_at);
  if (now >= Date.parse(row.expires_at) || now >= lastSeen + deps.sessions.idleMs) return undefined;
  if (now - lastSeen >= TOUCH_EVERY_MS) {
    await repo.touchSession(deps.db, tokenHash, new Date(now).toISOString());
  }
  return { operatorId: row.operator_id, name: row.name, role: row.role };
}

export async function signOut(deps: SessionDeps, token: string): Promise<void> {
  await repo.revokeSession(deps.db, hashToken(token), deps.now().toISOString());
}
