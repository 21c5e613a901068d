import { useQuery } from '@tanstack/react-query';
import type { PeriodSummary } from '@mpesa/shared/contract';
import { formatAmount } from '../../../lib/format';
import { summaryQueryOptions } from '../api/transactions-api';
import { isUnauthenticated } from '../../auth/unauthenticated';
import { SignInNotice } from '../../auth/components/sign-in-notice';
import { DailyChart } from './daily-chart';

/**
 * A period's figures; without them (still loading), hidden figures of a usual length in their
 * place, which wrap as the real ones will on a narrow card, so that nothing below moves when
 * they come.
 */
function Period({ title, period }: { title: string; period?: PeriodSummary }) {
  if (!period) {
    return (
      <div className="summary-period">
        <h3>{title}</h3>
        <p className="summary-collected summary-placeholder" aria-hidden="true">
          00,000 KES
        </p>
        <p className="summary-detail summary-placeholder" aria-hidden="true">
          00 payments, 00% successful
        </p>
      </div>
    );
  }
  const rate = period.successRate === null ? '–' : `${Math.round(period.successRate * 100)}%`;
  return (
    <div className="summary-period">
      <h3>{title}</h3>
      <p className="summary-collected">{formatAmount(period.collected)}</p>
      <p className="summary-detail">
        {period.count} {period.count === 1 ? 'payment' : 'payments'}, {rate} successful
      </p>
    </div>
  );
}

/** Above the history: what came in today and this week, and the last two weeks day by day. */
export function HistorySummary() {
  const { data, error, isError } = useQuery(summaryQueryOptions());
  if (isError && isUnauthenticated(error)) return <SignInNotice />;
  if (isError) return <p className="summary-unavailable">The figures could not be loaded.</p>;
  if (!data) {
    // Holds the figures' place while they load, so that the history below does not move when
    // they arrive (docs/performance.md, "The web app"). Hidden: it says nothing yet.
    return (
      <div className="history-summary" aria-hidden="true">
        <div className="summary-periods">
          <Period title="Today" />
          <Period title="Last 7 days" />
        </div>
        <DailyChart daily={[]} />
      </div>
    );
  }
  return (
    <section className="history-summary" aria-label="At a glance">
      <div className="summary-periods">
        <Period title="Today" period={data.today} />
        <Period title="Last 7 days" period={data.last7Days} />
      </div>
      <DailyChart daily={data.daily} />
    </section>
  );
}
