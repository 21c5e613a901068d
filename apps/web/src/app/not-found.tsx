import { Link } from 'react-router';
import { useHistoryReachable } from '../features/auth/history-reach';
import { shellWords } from '../i18n/shell-words';
import { useWords } from '../i18n/words';
import { useDocumentTitle } from '../lib/use-document-title';
import { notFoundWords } from './not-found-words';
import { paths } from '../lib/paths';

/** The specification shows no other routes; an unknown path says so and offers the way back. */
export function NotFound() {
  const words = useWords(notFoundWords);
  // The links are named as the header's own.
  const shell = useWords(shellWords);
  useDocumentTitle(words.title);
  const historyReachable = useHistoryReachable();
  return (
    <section className="card">
      <h2>{words.title}</h2>
      <p>{words.text}</p>
      <div className="actions">
        <Link to={paths.home} className="button button-primary">
          {shell.makePayment}
        </Link>
        {historyReachable && (
          <Link to={paths.transactions} className="button button-secondary">
            {shell.transactions}
          </Link>
        )}
      </div>
    </section>
  );
}
