import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AuditAction, AuditEntry } from '@mpesa/shared/contract-admin';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import { ownerPaths } from '../../../lib/owner-paths';
import { paths } from '../../../lib/paths';
import { statusWords } from '../../transactions/status-words';
import { WEBHOOK_EVENTS } from '../api/webhooks-api';
import { auditWords } from '../audit-words';
import { factPhrases } from '../audit-facts';
import { ownerWords } from '../owner-words';
import { webhookWords } from '../webhook-words';

/** Who did it, as an owner would say it: an operator or a key links to their screen. */
function Actor({ entry }: { entry: AuditEntry }) {
  const said = useWords(auditWords).actor;
  const { actorKind, actor } = entry;
  switch (actorKind) {
    case 'operator':
      return actor ? <Link to={ownerPaths.operators}>{actor}</Link> : said.operator(null);
    case 'key':
      return actor ? <Link to={ownerPaths.keys}>{said.key(actor)}</Link> : said.key(null);
    case 'command':
      // The deliverer turns a failing endpoint off: the server itself, not its command line.
      return entry.facts?.kind === 'endpoint_failing' ? said.server : said.command;
    case 'anonymous':
      return actor ? said.signingInAs(actor) : said.anonymous;
    default:
      // A doer a later version wrote: as stored.
      return actor ?? actorKind;
  }
}

/** What the line is about, linked to where it is seen: a payment's page, or its owner's screen. */
function Subject({ subject }: Pick<AuditEntry, 'subject'>) {
  const said = useWords(auditWords).subject;
  if (!subject) return '—';
  switch (subject.kind) {
    case 'payment':
      return <Link to={paths.transaction(subject.id)}>{said.payment(subject.name)}</Link>;
    case 'operator':
      return <Link to={ownerPaths.operators}>{subject.name ?? subject.id}</Link>;
    case 'key':
      return <Link to={ownerPaths.keys}>{subject.name ?? subject.id}</Link>;
    case 'webhook_endpoint':
      return (
        <Link to={ownerPaths.webhooks} className="owner-url">
          {said.endpoint(subject.name)}
        </Link>
      );
    default:
      return subject.name ?? subject.id;
  }
}

/**
 * What was done, and its details in words. A detail the API could not read is shown as stored (in
 * English, said so), unless it is not words at all (an export's filters cut short).
 */
function What({ entry }: { entry: AuditEntry }) {
  const said = useWords(auditWords);
  const owner = useWords(ownerWords);
  const statuses = useWords(statusWords);
  const { events } = useWords(webhookWords);
  const language = useLanguage();
  const phrases = factPhrases(entry, {
    said: said.facts,
    owner,
    statuses,
    events,
    allEvents: WEBHOOK_EVENTS,
    language,
  });
  let details: ReactNode = null;
  if (phrases.length > 0) {
    details = <span className="audit-detail">{phrases.join('; ')}</span>;
  } else if (!entry.facts && entry.detail && !/^\s*[[{]/.test(entry.detail)) {
    details = (
      <span className="audit-detail" lang="en">
        {entry.detail}
      </span>
    );
  }
  return (
    <>
      <span className="audit-action">
        {Object.hasOwn(said.actions, entry.action)
          ? said.actions[entry.action as AuditAction]
          : entry.action}
      </span>
      {details}
    </>
  );
}

/** One line of the trail: when, who, what (with its details), to what, and from where. */
export function AuditRow({
  entry,
  first,
}: {
  entry: AuditEntry;
  first?: (row: HTMLElement | null) => void;
}) {
  const { columns } = useWords(auditWords);
  const language = useLanguage();
  return (
    <tr role="row" ref={first} tabIndex={first ? -1 : undefined}>
      <td role="cell" data-label={columns.when}>
        {formatDate(entry.at, language)}
      </td>
      <td role="cell" data-label={columns.who} className="audit-name">
        <Actor entry={entry} />
      </td>
      <td role="cell" data-label={columns.what}>
        <What entry={entry} />
      </td>
      <td role="cell" data-label={columns.target} className="audit-name">
        <Subject subject={entry.subject} />
      </td>
      <td role="cell" data-label={columns.address}>
        {entry.address ?? '—'}
      </td>
    </tr>
  );
}
