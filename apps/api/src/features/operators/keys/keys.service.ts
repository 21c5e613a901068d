/**
 * API keys for the shop's own systems (docs/decisions/003-operator-sessions.md): a key is
 * `mpk_` and 32 random bytes (base64url), shown once; only its SHA-256 is kept, with its first
 * characters to tell keys apart. Every request looks its key up, so a revocation is seen by every
 * instance at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ApiKey, ApiKeyScope } from '@mpesa/shared/contract-admin';
import { recordAudit, type AuditEntry } from '../../../audit/audit.ts';
import { auditDetail } from '../../../audit/audit-details.ts';
import type { Database } from '../../../db/schema.ts';
import { transact } from '../../../db/transact.ts';
import {
  apiKeyNotFound,
  roleNotAllowed,
  unauthenticated,
  validationError,
} from '../../../errors.ts';
import { sortableId } from '../../../lib/sortable-id.ts';
import { isOwnId } from '../../../lib/stored-lengths.ts';
import { nameProblem, normaliseName } from '../operator-name.ts';
import type { OperatorRole } from '../roles.ts';
import * as repo from './keys.repository.ts';

export const KEY_PREFIX = 'mpk_';
/** How many of a key's first characters are kept and shown. */
const SHOWN_LENGTH = 12;
/** `mpk_` and 43 characters of base64url: anything much longer is no key of ours. */
const LONGEST_KEY = 100;
/** last_used_at is written at most this often: not on every request. */
const TOUCH_EVERY_MS = 60_000;

const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A key as an owner's list shows it: never the key itself, nor its hash. */
export function keyEntry(row: repo.ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    createdAt: row.created_at,
    createdBy: row.created_by,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    revokedReason: row.revoked_reason,
    revokedBy: row.revoked_by,
  };
}

export async function listKeys(db: Kysely<Database>): Promise<ApiKey[]> {
  return (await repo.listKeys(db)).map(keyEntry);
}

/**
 * Makes a key for the owner `createdById`: the answer's `secret` is the only copy of it there will
 * ever be. Written while their row is held, so that a key made as they are removed or demoted is
 * either refused (401 if they are gone, 403 if no longer an owner) or revoked with their others.
 */
export async function createKey(
  db: Kysely<Database>,
  input: { name: string; scope: ApiKeyScope; createdBy: string; createdById: string; now: Date },
): Promise<{ key: ApiKey; secret: string }> {
  const problem = nameProblem(input.name);
  if (problem) throw validationError(problem.replace('The name', 'The key’s name'), 'name');
  const secret = KEY_PREFIX + randomBytes(32).toString('base64url');
  const row: repo.ApiKeyRow = {
    id: sortableId(),
    name: normaliseName(input.name),
    scope: input.scope,
    prefix: secret.slice(0, SHOWN_LENGTH),
    key_hash: hashKey(secret),
    created_at: input.now.toISOString(),
    created_by: input.createdBy,
    created_by_id: input.createdById,
    last_used_at: null,
    revoked_at: null,
    revoked_reason: null,
    revoked_by: null,
  };
  await transact(db, async (trx) => {
    const role = await repo.lockMakerRole(trx, input.createdById);
    if (role === undefined) throw unauthenticated();
    if (role !== 'owner') throw roleNotAllowed();
    await repo.insertKey(trx, row);
  });
  return { key: keyEntry(row), secret };
}

/**
 * Revokes a key as the owner named `by` (404 API_KEY_NOT_FOUND for an id that is none); revoking
 * twice changes nothing.
 */
export async function revokeKey(
  db: Kysely<Database>,
  id: string,
  now: Date,
  by: string,
): Promise<{ key: ApiKey; revokedNow: boolean }> {
  // An id that cannot be ours names no key (and never reaches a query).
  const found = isOwnId(id) ? await repo.findKeyById(db, id) : undefined;
  if (!found) throw apiKeyNotFound();
  if (found.revoked_at !== null) return { key: keyEntry(found), revokedNow: false };
  const at = now.toISOString();
  // Of two revocations at once, only one revokes (and is recorded).
  const revokedNow = await repo.revokeKey(db, id, at, by);
  const row = revokedNow
    ? { ...found, revoked_at: at, revoked_reason: 'owner' as const, revoked_by: by }
    : await repo.findKeyById(db, id);
  return { key: keyEntry(row ?? found), revokedNow };
}

/** Who changed the maker, as the audit trail names them. */
export type ChangedBy = Pick<AuditEntry, 'actorKind' | 'actor' | 'address'>;

/**
 * A key ends with its maker: when the operator `maker` is removed (`role` null) or made anything
 * but an owner, every live key they made is revoked, with why, inside the caller's transaction (the
 * removal's or the role change's), and each gets a line in the audit trail when `by` is known.
 * Only an owner makes a key, so no other change can leave one whose maker could not have made it.
 * Answers how many were revoked.
 */
export async function revokeKeysOfMaker(
  trx: Kysely<Database>,
  maker: { id: string; name: string },
  change: { role: OperatorRole | null; now: Date; by?: ChangedBy | undefined },
): Promise<number> {
  if (change.role === 'owner') return 0;
  const revoked = await repo.revokeKeysMadeBy(trx, maker.id, {
    at: change.now.toISOString(),
    reason: change.role === null ? 'maker_removed' : 'maker_not_owner',
    by: change.by?.actorKind === 'operator' ? change.by.actor : null,
  });
  if (!change.by) return revoked.length;
  // Oldest key first (ids sort by creation), whatever order the database returned them in.
  for (const key of revoked.sort((x, y) => (x.id < y.id ? -1 : 1))) {
    await recordAudit(trx, {
      ...change.by,
      at: change.now,
      action: 'key_revoked',
      target: key.name,
      detail: auditDetail.keyOfMaker(key.scope, maker.name, change.role),
    });
  }
  return revoked.length;
}

export interface KeyHolder {
  keyId: string;
  name: string;
  scope: ApiKeyScope;
}

/** The live key `secret` is, or undefined if it is unknown or revoked. */
export async function keyFor(
  deps: { db: Kysely<Database>; now: () => Date },
  secret: string,
): Promise<KeyHolder | undefined> {
  if (!secret.startsWith(KEY_PREFIX) || secret.length > LONGEST_KEY) return undefined;
  const row = await repo.findKeyByHash(deps.db, hashKey(secret));
  if (!row || row.revoked_at !== null) return undefined;
  const now = deps.now();
  const lastUsed = row.last_used_at === null ? undefined : Date.parse(row.last_used_at);
  if (lastUsed === undefined || now.getTime() - lastUsed >= TOUCH_EVERY_MS) {
    await repo.touchKey(deps.db, row.id, now.toISOString());
  }
  return { keyId: row.id, name: row.name, scope: row.scope };
}
