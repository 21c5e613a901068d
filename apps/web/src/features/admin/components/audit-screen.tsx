import { useEffect, useRef } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@mpesa/shared/contract-admin';
import { formatDate } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { auditQueryOptions } from '../api/admin-api';
import { actionWords, actorWords } from '../owner-words';
import { OwnerProblem } from './owner-parts';

const COLUMNS = ['When', 'Who', 'What', 'To what', 'From where'] as const;

function AuditRow({
  entry,
  first,
}: {
  entry: AuditEntry;
  first?: (row: HTMLElement | null) => void;
}) {
  return (
    <tr role="row" ref={first} tabIndex={first ? -1 : undefined}>
      <td role="cell" data-label="When">
        {formatDate(entry.at)}
      </td>
      <td role="cell" data-label="Who">
        {actorWords(entry)}
      </td>
      <td role="cell" data-label="What">
        {actionWords(entry.action)}
        {entry.detail && <span className="audit-detail">{entry.detail}</span>}
      </td>
      <td role="cell" data-label="To what">
        {entry.target ?? '—'}
      </td>
      <td role="cell" data-label="From where">
        {entry.address ?? '—'}
      </td>
    </tr>
  );
}

/** Who did what, newest first: sign-ins, exports, reviews, and changes to operators and keys. */
export function AuditScreen() {
  useDocumentTitle('Audit trail');
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
    body = query.isError ? <OwnerProblem error={query.error} /> : <p role="status">Loading...</p>;
  } else if (entries.length === 0) {
    body = <p>Nothing has been recorded yet.</p>;
  } else {
    body = (
      <table className="owner-table" role="table" aria-labelledby="audit-title">
        <thead role="rowgroup">
          <tr role="row">
            {COLUMNS.map((column) => (
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
      <h2 id="audit-title">Audit trail</h2>
      <p>Who did what, and when, newest first.</p>
      {body}
      {isFetchNextPageError && <OwnerProblem error={query.error} />}
      {hasNextPage && (
        <button
          type="button"
          className="button button-secondary load-more"
          disabled={isFetchingNextPage}
          onClick={() => void fetchNextPage()}
        >
          {isFetchingNextPage ? 'Loading...' : 'Show older'}
        </button>
      )}
    </section>
  );
}
