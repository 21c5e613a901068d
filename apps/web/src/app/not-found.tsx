import { Link } from 'react-router';
import { paths } from './paths';
import { useDocumentTitle } from '../lib/use-document-title';

/** The specification shows no other routes; an unknown path says so and offers the way back. */
export function NotFound() {
  useDocumentTitle('Page not found');
  return (
    <section className="card">
      <h2>Page not found</h2>
      <p>There is nothing at this address.</p>
      <div className="actions">
        <Link to={paths.home} className="button button-primary">
          Make Payment
        </Link>
        <Link to={paths.transactions} className="button button-secondary">
          Transactions
        </Link>
      </div>
    </section>
  );
}
