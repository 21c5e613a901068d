import { useEffect, useRef } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@mpesa/shared/contract-admin';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { auditQueryOptions } from '../api/admin-api';
import { ownerWords, type OwnerWords } from '../owner-words';
import { OwnerProblem } from './owner-parts';

/** Who did it, as an owner would say it. */
function actorWords(
  { actorKind, actor }: Pick<AuditEntry, 'actorKind' | 'actor'>,
  said: OwnerWords['audit']['actor'],
): string {
  switch (actorKind) {
    case 'operator':
      return said.operator(actor);
    case 'key':
      return said.key(actor);
    case 'command':
      return said.command;
    default:
      return said.anonymous(actor);
  }
}

function AuditRow({
  entry,
  first,
}: {
  entry: AuditEntry;
  first?: (row: HTMLElement | null) => void;
}) {
  const { columns, ...said } = useWords(ownerWords).audit;
  const language = useLanguage();
  return (
    <tr role="row" ref={first} tabIndex={first ? -1 : undefined}>
      <td role="cell" data-label={columns.when}>
        {formatDate(entry.at, language)}
      </td>
      <td role="cell" data-label={columns.who}>
        {actorWords(entry, said.actor)}
      </td>
      <td role="cell" data-label={columns.what}>
        {said.actions[entry.action] ?? entry.action}
        {entry.detail && (
          <span className="audit-detail" lang="en">
            {entry.detail}
          </span>
        )}
      </td>
      <td role="cell" data-label={columns.target}>
        {entry.target ?? '—'}
      </td>
      <td role="cell" data-label={columns.address}>
        {entry.address ?? '—'}
      </td>
    </tr>
  );
}

/** Who did what, newest first: sign-ins, exports, reviews, and changes to operators and keys. */
export function AuditScreen() {
  const said = useWords(ownerWords).audit;
  useDocumentTitle(said.title);
  const query = useInfiniteQuery(auditQueryOptions());
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage, isFetchNextPageError } = query;
  const pages = data?.pages ?? [];
  const entries = pages.flatMap((page) => page.entries);
  // After "Show older", focus goes to the first of the older entries, where reading goes on.
  const olderFrom =
    pages.length > 1 ? entries.length - pages[pages.length - 1]!.entries.length : -1;
  const firstOlder = useRef<HTMLElement | null>(null);
  useEffect(() => firstOlder.current?.focus(), [olderFrom]);

  let body;
  if (!data) {
    body = query.isError ? (
      <OwnerProblem error={query.error} />
    ) : (
      <p role="status">{said.loading}</p>
    );
  } else if (entries.length === 0) {
    body = <p>{said.empty}</p>;
  } else {
    body = (
      <table className="owner-table" role="table" aria-labelledby="audit-title">
        <thead role="rowgroup">
          <tr role="row">
            {Object.values(said.columns).map((column) => (
              <th key={column} role="columnheader" scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {entries.map((entry, index) => (
            <AuditRow
              key={entry.id}
              entry={entry}
              first={index === olderFrom ? (row) => void (firstOlder.current = row) : undefined}
            />
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <section className="card owner-screen" aria-labelledby="audit-title">
      <h2 id="audit-title">{said.title}</h2>
      <p>{said.intro}</p>
      {body}
      {isFetchNextPageError && <OwnerProblem error={query.error} />}
      {hasNextPage && (
        <button
          type="button"
          className="button button-secondary load-more"
          disabled={isFetchingNextPage}
          onClick={() => void fetchNextPage()}
        >
          {isFetchingNextPage ? said.loading : said.showOlder}
        </button>
      )}
    </section>
  );
}
