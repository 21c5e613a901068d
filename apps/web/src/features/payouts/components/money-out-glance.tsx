import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatAmount, formatNumber } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { payoutSummaryQueryOptions, type PayoutSummary } from '../api/payouts-api';
import { payoutWords } from '../payouts-words';
import { BalancePanel } from './balance-panel';
import '../payouts.css';

/** A period's money out: what was paid, in how many payouts, and M-PESA's charges for them. */
function OutPeriod({ title, period }: { title: string; period?: PayoutSummary['today'] }) {
  const said = useWords(payoutWords).moneyOut;
  const language = useLanguage();
  return (
    <div className="summary-period">
      <h4>{title}</h4>
      {/* Held in place, hidden, until the figures come: nothing below moves when they do. */}
      <p
        className={`summary-collected${period ? '' : ' summary-placeholder'}`}
        aria-hidden={period ? undefined : true}
      >
        {formatAmount(period?.amount ?? 0, language)}
      </p>
      <p
        className={`summary-detail${period ? '' : ' summary-placeholder'}`}
        aria-hidden={period ? undefined : true}
      >
        {said.paidOut(
          period?.count ?? 0,
          formatNumber(period?.count ?? 0, language),
          formatAmount(period?.charges ?? 0, language),
        )}
      </p>
    </div>
  );
}

/**
 * Under the history's figures of money in, for the shop's signed-in people: money out today and
 * this week (never counted with the money in), the payouts waiting for approval, and the balance
 * M-PESA holds with the day's money beside it.
 */
export function MoneyOutGlance({ mayAsk }: { mayAsk: boolean }) {
  const said = useWords(payoutWords).moneyOut;
  const language = useLanguage();
  const { data, isError } = useQuery(payoutSummaryQueryOptions());
  return (
    <section className="money-out-glance" aria-labelledby="money-out-glance-title">
      <h3 id="money-out-glance-title">{said.glance}</h3>
      {isError ? (
        <p className="summary-unavailable">{said.figuresFailed}</p>
      ) : (
        <div className="summary-periods">
          <OutPeriod title={said.today} period={data?.today} />
          <OutPeriod title={said.last7Days} period={data?.last7Days} />
        </div>
      )}
      {data && data.waiting > 0 && (
        <p className="money-out-waiting">
          {said.waiting(data.waiting, formatNumber(data.waiting, language))}{' '}
          <Link to={paths.payouts}>{said.toPayouts}</Link>
        </p>
      )}
      <BalancePanel mayAsk={mayAsk} />
    </section>
  );
}
