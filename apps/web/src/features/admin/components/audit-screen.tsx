import { useEffect, useRef } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useWords } from '../../../i18n/words';
import { LoadMore } from '../../../lib/load-more';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { auditQueryOptions } from '../api/admin-api';
import { auditWords } from '../audit-words';
import { AuditRow } from './audit-row';
import { OwnerProblem } from './owner-parts';

/** Who did what, newest first: sign-ins, exports, reviews, and changes to operators and keys. */
export function AuditScreen() {
  const said = useWords(auditWords);
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
        <LoadMore
          loading={isFetchingNextPage}
          onClick={() => void fetchNextPage()}
          label={said.showOlder}
          loadingLabel={said.loading}
        />
      )}
    </section>
  );
}
