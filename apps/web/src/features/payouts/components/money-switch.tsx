import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useWords } from '../../../i18n/words';
import { paths } from '../../../lib/paths';
import { meQueryOptions } from '../../auth/api/auth-api';
import { payoutWords } from '../payouts-words';

/**
 * The history's two halves, for the shop's signed-in people: the money in (the payments, the
 * specification's table) and the money out (the payouts), never mixed. None where no one is
 * signed in (the history open to all shows the money in alone).
 */
export function MoneySwitch({ current }: { current: 'in' | 'out' }) {
  const said = useWords(payoutWords).moneyOut;
  const { data: operator } = useQuery(meQueryOptions());
  if (!operator) return null;
  return (
    <nav className="money-switch" aria-label={said.switchLabel}>
      <Link to={paths.transactions} aria-current={current === 'in' ? 'page' : undefined}>
        {said.moneyIn}
      </Link>
      <Link
        to={`${paths.transactions}?money=out`}
        aria-current={current === 'out' ? 'page' : undefined}
      >
        {said.moneyOut}
      </Link>
    </nav>
  );
}
