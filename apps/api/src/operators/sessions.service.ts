/**
 * Sign-in, the session it opens, and sign-out (docs/decisions/003-operator-sessions.md). A
 * session's token is 32 random bytes sent once, in the cookie; the database keeps its SHA-256 and
 * both expiries, so every instance sees a sign-out at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit.ts';
import type { Database } from '../db/schema.ts';
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
 * Checks a name and password and opens a session. Every failure is the same 401, after the same
 * work (an unknown name is checked against a dummy hash); failures count against the name and
 * the address, and past either limit every attempt is refused 429 until its window ends.
 */
export async function signIn(
  deps: SessionDeps,
  input: { name: string; password: string; addressKey: string; address?: string },
): Promise<SignedIn & { token: string; expiresAt: Date }> {
  const { db, sessions } = deps;
  const now = deps.now();
  const windowMs = sessions.signInLimit.windowS * 1000;
  const windowIndex = Math.floor(now.getTime() / windowMs);
  const retryAfterS = Math.ceil(((windowIndex + 1) * windowMs - now.getTime()) / 1000);
  const keys = limitKeys(input.name, input.addressKey);
  const max = { name: sessions.signInLimit.perName, address: sessions.signInLimit.perAddress };
  // Counted before the password is checked, each count one atomic statement: of a burst sent at
  // once, only as many as the limit allows are checked at all. A sign-in that succeeds is then
  // taken back off the counts: only failures count.
  let over = false;
  for (const { key, by } of keys) {
    if ((await countHit(db, key, windowIndex)) > max[by]) over = true;
  }
  if (over) throw tooManySignIns(retryAfterS);
  // The counters of windows that have ended count nothing any more.
  await deleteEndedWindows(db, SIGN_IN_PREFIX, windowIndex);

  const operator = usableName(input.name)
    ? await repo.findOperatorByKey(db, nameKey(input.name))
    : undefined;
  const stored = operator?.password_hash ?? (await dummyHash());
  const matches = await verifyPassword(input.password, stored);
  const address = input.address ?? null;
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
  for (const { key } of keys) await uncountHit(db, key, windowIndex);
  await recordAudit(db, {
    at: now,
    actorKind: 'operator',
    actor: operator.name,
    action: 'sign_in',
    address,
  });

  await repo.deleteEndedSessions(db, operator.id, {
    now: now.toISOString(),
    idleSince: new Date(now.getTime() - sessions.idleMs).toISOString(),
  });
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + sessions.maxMs);
  await repo.insertSession(db, {
    token_hash: hashToken(token),
    operator_id: operator.id,
    at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
  });
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
  if (!row) return undefined;
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
