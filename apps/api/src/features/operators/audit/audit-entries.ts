/**
 * The trail's lines as the owner's screen reads them: each with what it is about (a payment, an
 * operator, a key, a webhook endpoint, named as an owner knows it) and its detail read into parts
 * (audit/audit-details.ts). The stored lines are not changed.
 */
import type { Kysely, Selectable } from 'kysely';
import type {
  AuditAction,
  AuditEntry,
  AuditFacts,
  AuditSubjectKind,
} from '@mpesa/shared/contract-admin';
import { readAuditDetail } from '../../../audit/audit-details.ts';
import type { AuditEventTable, Database } from '../../../db/schema.ts';
import { namesOf } from './audit.repository.ts';

/** What each action's `target` is (an action a later version wrote: nothing known). */
const SUBJECT_OF: Record<AuditAction, AuditSubjectKind | null> = {
  sign_in: null,
  sign_in_failed: null,
  sign_out: null,
  export: null,
  review: 'payment',
  refund: 'payment',
  operator_added: 'operator',
  operator_role_changed: 'operator',
  operator_removed: 'operator',
  password_link_issued: 'operator',
  password_set: 'operator',
  key_created: 'key',
  key_revoked: 'key',
  webhook_endpoint_added: 'webhook_endpoint',
  webhook_endpoint_changed: 'webhook_endpoint',
  webhook_endpoint_removed: 'webhook_endpoint',
  webhook_endpoint_disabled: 'webhook_endpoint',
  webhook_secret_rotated: 'webhook_endpoint',
  webhook_resent: 'webhook_endpoint',
  webhook_test_sent: 'webhook_endpoint',
  // A payout is found on the Payouts screen by its id (the line's detail says what it was).
  payout_proposed: null,
  payout_approved: null,
  payout_declined: null,
  payouts_export: null,
  // A link is found on the Links screen (the line's detail says which).
  link_created: null,
  link_switched_off: null,
};

const subjectKindOf = (action: string): AuditSubjectKind | null =>
  Object.hasOwn(SUBJECT_OF, action) ? SUBJECT_OF[action as AuditAction] : null;

type Row = Selectable<AuditEventTable>;

/**
 * Who did it. A password set with a one-time link was written, by earlier versions, as by someone
 * not signed in: the link is its operator's as their password is, and such a line is read as the
 * operator's own, as it is now written (password-links.service.ts).
 */
function actorOf(row: Row): Pick<AuditEntry, 'actorKind' | 'actor'> {
  if (row.action === 'password_set' && row.actor_kind === 'anonymous' && row.actor === null) {
    return { actorKind: 'operator', actor: row.target };
  }
  return { actorKind: row.actor_kind, actor: row.actor };
}

/** What the line is about, named: a payment by its reference, an endpoint by its URL. */
function subjectOf(
  row: Row,
  facts: AuditFacts | null,
  names: Awaited<ReturnType<typeof namesOf>>,
): AuditEntry['subject'] {
  const kind = subjectKindOf(row.action);
  const id = row.target;
  if (!kind || id === null) return null;
  if (kind === 'payment') return { kind, id, name: names.payments.get(id) ?? null };
  if (kind === 'webhook_endpoint') {
    // One removed since is named by the URL its line kept.
    const kept = facts && 'url' in facts && typeof facts.url === 'string' ? facts.url : null;
    return { kind, id, name: names.endpoints.get(id) ?? kept };
  }
  return { kind, id, name: id };
}

/** The lines of a page, as the API answers them. */
export async function auditEntries(db: Kysely<Database>, rows: Row[]): Promise<AuditEntry[]> {
  const targetsOf = (kind: AuditSubjectKind) =>
    rows.flatMap((row) => (subjectKindOf(row.action) === kind && row.target ? [row.target] : []));
  const names = await namesOf(db, {
    payments: [...new Set(targetsOf('payment'))],
    endpoints: [...new Set(targetsOf('webhook_endpoint'))],
  });
  return rows.map((row) => {
    const facts = readAuditDetail(row.action, row.detail);
    return {
      id: row.id,
      at: row.at,
      ...actorOf(row),
      action: row.action,
      target: row.target,
      subject: subjectOf(row, facts, names),
      detail: row.detail,
      facts,
      address: row.address,
    };
  });
}
