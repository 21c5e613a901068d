/**
 * The audit trail: who signed in (or failed to), exported, reviewed a payment, or changed an
 * operator or a key, and when. Written beside what it records; read by owners (newest first).
 */
import type { Kysely } from 'kysely';
import type { AuditAction, AuditActorKind } from '@mpesa/shared/contract-admin';
import type { Database } from '../db/schema.ts';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { sortableId } from '../lib/sortable-id.ts';

export interface AuditEntry {
  at: Date;
  actorKind: AuditActorKind;
  /** The operator's or key's name; null when nobody known did it. */
  actor: string | null;
  action: AuditAction;
  target?: string | null;
  detail?: string | null;
  address?: string | null;
}

/** A value cut to its column, so that a long note or filter never keeps the line from being written. */
const fit = (value: string | null | undefined, max: number) =>
  value === null || value === undefined
    ? null
    : value.length > max
      ? value.slice(0, max - 1) + '…'
      : value;

/** Records one line (inside the caller's transaction when `db` is one). */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: sortableId(),
      at: entry.at.toISOString(),
      actor_kind: entry.actorKind,
      actor: fit(entry.actor, MAX_LENGTH.operatorName),
      action: entry.action,
      target: fit(entry.target, MAX_LENGTH.ownId),
      detail: fit(entry.detail, MAX_LENGTH.auditDetail),
      address: fit(entry.address, MAX_LENGTH.ipAddress),
    })
    .execute();
}
