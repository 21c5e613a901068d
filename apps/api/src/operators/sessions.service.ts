/**
 * Sign-in, the session it opens, and sign-out (docs/decisions/003-operator-sessions.md). A
 * session's token is 32 random bytes sent once, in the cookie; the database keeps its SHA-256 and
 * both expiries, so every instance sees a sign-out at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit.ts';
import type { Database } from '../db/schema.ts';
import { transact } from '../db/transact.ts';
import { signInFailed, tooManySignIns } from '../errors.ts';
import { countHit, deleteEndedWindows, uncountHit } from '../limits/rate-limit.repository.ts';
import { isStorableName, nameKey } from './operator-name.ts';
import { dummyHash, verifyPassword } from './password.ts';
import type { OperatorRole } from './roles.ts';
import * as repo from './operators.repository.ts';

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
  /** Failed sign-ins allowed per name and per address in each window. */
  signInLimit: { perName: number; perAddress: number; windowS: number };
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

/** last_seen_at is written at most this often: not on every request. */
const TOUCH_EVERY_MS = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A name that can be looked up: one no operator can have (too long, or with a control character,
 * which PostgreSQL text refuses outright when it is NUL) is never sent to the database.
 */
const usableName = (name: string) => isStorableName(name) && !/\p{C}/u.test(name);

/** What every sign-in counter's key starts with. */
const SIGN_IN_PREFIX = 'sign-in|';

/** The counters a failed sign-in counts in: its name's and its address's. */
function limitKeys(name: string, addressKey: string) {
  return [
    // Hashed: a password typed into the name field must not be kept in the clear.
    {
      key: `${SIGN_IN_PREFIX}name|${hashToken(usableName(name) ? nameKey(name) : name)}`,
      by: 'name',
    },
    { key: `${SIGN_IN_PREFIX}address|${addressKey}`, by: 'address' },
  ] as const;
}

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
  keys: ReturnType<typeof limitKeys>;
  windowIndex: number;
  now: Date;
  address: string | null;
}

/**
 * Checks a name and password and opens a session. Every failure is the same 401, after the same
 * work (an unknown name is checked against a dummy hash); failures count against the name and
 * the address, and past either limit every attempt is refused 429 until its window ends.
 */
export async function signIn(
  deps: SessionDeps,
  input: { name: string; password: string; addressKey: string; address?: string },
): Promise<SignedIn & { token: string; expiresAt: Date }> {
  return openSession(deps, await verifySignIn(deps, input));
}

/** The first step of a sign-in: the limits, then the password. Throws 429 or 401. */
export async function verifySignIn(
  deps: SessionDeps,
  input: { name: string; password: string; addressKey: string; address?: string },
): Promise<Verified> {
  const { db, sessions } = deps;
  const now = deps.now();
  const windowMs = sessions.signInLimit.windowS * 1000;
  const windowIndex = Math.floor(now.getTime() / windowMs);
  const windowEnd = new Date((windowIndex + 1) * windowMs);
  const keys = limitKeys(input.name, input.addressKey);
  const max = { name: sessions.signInLimit.perName, address: sessions.signInLimit.perAddress };
  const address = input.address ?? null;
  const findOperator = () =>
    usableName(input.name) ? repo.findOperatorByKey(db, nameKey(input.name)) : undefined;
  // Counted before the password is checked, each count one atomic statement: of a burst sent at
  // once, only as many as the limit allows are checked at all. A sign-in that succeeds is then
  // taken back off the counts: only failures count.
  let over = false;
  for (const { key, by } of keys) {
    const hits = await countHit(db, key, windowIndex);
    if (hits > max[by]) over = true;
    // One line when a limit is first passed in a window, not one per attempt refused: a flood of
    // attempts must not fill the audit trail.
    if (hits === max[by] + 1) {
      await recordAudit(db, {
        at: now,
        actorKind: 'anonymous',
        actor: (await findOperator())?.name ?? null,
        action: 'sign_in_failed',
        detail: `too many failed sign-ins for this ${by}: every attempt is refused until ${windowEnd.toISOString()}`,
        address,
      });
    }
  }
  if (over) throw tooManySignIns(Math.ceil((windowEnd.getTime() - now.getTime()) / 1000));
  // The counters of windows that have ended count nothing any more.
  await deleteEndedWindows(db, SIGN_IN_PREFIX, windowIndex);

  const operator = await findOperator();
  const stored = operator?.password_hash ?? (await dummyHash());
  const matches = await verifyPassword(input.password, stored);
  if (!operator || !matches) {
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
  return { operator, passwordHash: stored, keys, windowIndex, now, address };
}

/**
 * The second step: opens the session, bound to the password verified, and records the sign-in, in
 * one transaction, only if the operator still exists with that password (one removed, or whose
 * password changed, while it was being checked gets the same 401 as a wrong password).
 */
export async function openSession(
  deps: SessionDeps,
  verified: Verified,
): Promise<SignedIn & { token: string; expiresAt: Date }> {
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
        detail: 'the operator was removed, or their password changed, during the sign-in',
        address,
      });
      return false;
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
    await recordAudit(trx, {
      at: now,
      actorKind: 'operator',
      actor: operator.name,
      action: 'sign_in',
      address,
    });
    return true;
  });
  if (!opened) throw signInFailed();
  for (const { key } of verified.keys) await uncountHit(db, key, verified.windowIndex);
  return { token, expiresAt, operatorId: operator.id, name: operator.name, role: operator.role };
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
