import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useWords } from '../../../i18n/words';
import { paths } from '../../../lib/paths';
import { meQueryOptions } from '../../auth/api/auth-api';
import { payoutWords } from '../payouts-words';

/**
 * On the history's Money out, the way between its two halves: the money in (the payments, the
 * specification's table) and the money out (the payouts), never mixed. (The money in's page
 * reaches Money out from its figures, money-out-glance.tsx.)
 */
export function MoneySwitch() {
  const said = useWords(payoutWords).moneyOut;
  const { data: operator } = useQuery(meQueryOptions());
  if (!operator) return null;
  return (
    <nav className="money-switch" aria-label={said.switchLabel}>
      <Link to={paths.transactions}>{said.moneyIn}</Link>
      <Link to={`${paths.transactions}?money=out`} aria-current="page">
        {said.moneyOut}
      </Link>
    </nav>
  );
}
