import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { wideScreen } from '../../../lib/wide-screen';
import { Link } from 'react-router';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatAmount, formatDate, formatNumber } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { balanceQueryOptions, payoutSummaryQueryOptions } from '../api/payouts-api';
import { payoutWords } from '../payouts-words';
import { BalancePanel } from './balance-panel';
import '../payouts.css';

/** The balance M-PESA last gave, and when it was read. */
function BalanceLine() {
  const words = useWords(payoutWords);
  const language = useLanguage();
  const { data } = useQuery(balanceQueryOptions());
  const read = data?.latest?.status === 'read' ? data.latest : null;
  return (
    <p className="money-out-balance-line">
      {read && read.total !== null
        ? words.moneyOut.balanceLine(
            words.kes(read.total),
            formatDate(read.readAt ?? read.askedAt, language),
          )
        : words.moneyOut.balanceUnread}
    </p>
  );
}

/**
 * Beside the history's figures of money in, for the shop's signed-in people: money out today, the
 * week's, the payouts waiting for approval, every payout (the history's Money out), and the balance
 * M-PESA holds with when it was read and the day's money beside it. Money out is never counted with
 * the money in. Open on a wide screen; folded to its first line on a phone (where the history puts
 * it under the payments, `place`).
 */
export function MoneyOutGlance({ mayAsk, place }: { mayAsk: boolean; place: 'top' | 'bottom' }) {
  const [wide] = useState(wideScreen);
  if ((place === 'top') !== wide) return null;
  return <Glance mayAsk={mayAsk} open={wide} />;
}

function Glance({ mayAsk, open }: { mayAsk: boolean; open: boolean }) {
  const said = useWords(payoutWords).moneyOut;
  const language = useLanguage();
  const { data, isError } = useQuery(payoutSummaryQueryOptions());
  const today = data?.today;
  return (
    <section className="money-out-glance" aria-label={said.glance}>
      <details open={open}>
        <summary>
          {today ? said.todayLine(formatAmount(today.amount, language)) : said.glance}
        </summary>
        {isError && <p className="summary-unavailable">{said.figuresFailed}</p>}
        {data && (
          <p>
            {said.paidOut(
              formatAmount(data.today.amount, language),
              data.today.count,
              formatNumber(data.today.count, language),
              formatAmount(data.today.charges, language),
              formatAmount(data.last7Days.amount, language),
            )}
          </p>
        )}
        {data && data.waiting > 0 && (
          <p>
            {said.waiting(data.waiting, formatNumber(data.waiting, language))}{' '}
            <Link to={paths.payouts}>{said.toPayouts}</Link>
          </p>
        )}
        <p>
          <Link to={`${paths.transactions}?money=out`}>{said.everyPayout}</Link>
        </p>
        <BalanceLine />
        <BalancePanel mayAsk={mayAsk} />
      </details>
    </section>
  );
}
