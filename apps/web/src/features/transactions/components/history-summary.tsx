import { useQuery } from '@tanstack/react-query';
import { meQueryOptions } from '../../auth/api/auth-api';
import type { PeriodSummary } from '@mpesa/shared/contract';
import { formatAmount, formatNumber } from '../../../lib/format';
import { LOCALES, type Language } from '../../../i18n/language';
import { useLanguage, useWords } from '../../../i18n/words';
import { historyWords } from '../history-words';
import { summaryQueryOptions } from '../api/transactions-api';
import { isUnauthenticated } from '../../auth/unauthenticated';
import { SignInNotice } from '../../auth/components/sign-in-notice';
import { DailyChart } from './daily-chart';
import { MoneyOutGlance } from '../../payouts/components/money-out-glance';

/** 2/3 → "67%", a whole percentage as the language writes it. */
function percent(rate: number, language: Language): string {
  return new Intl.NumberFormat(LOCALES[language], { style: 'percent' }).format(rate);
}

/**
 * A period's figures; without them (still loading), hidden figures of a usual length in their
 * place, which wrap as the real ones will on a narrow card, so that nothing below moves when
 * they come.
 */
function Period({ title, period }: { title: string; period?: PeriodSummary }) {
  const words = useWords(historyWords);
  const language = useLanguage();
  if (!period) {
    return (
      <div className="summary-period">
        <h3>{title}</h3>
        <p className="summary-collected summary-placeholder" aria-hidden="true">
          00,000 KES
        </p>
        <p className="summary-refunds summary-placeholder" aria-hidden="true">
          {words.noRefunds}
        </p>
        <p className="summary-detail summary-placeholder" aria-hidden="true">
          {words.periodPlaceholder}
        </p>
      </div>
    );
  }
  const rate = period.successRate === null ? '–' : percent(period.successRate, language);
  return (
    <div className="summary-period">
      <h3>{title}</h3>
      <p className="summary-collected">{formatAmount(period.collected, language)}</p>
      {/* Collected counts no refunded payment: said under it, with what was given back. */}
      <p className="summary-refunds">
        {period.refundedCount > 0
          ? words.afterRefunds(
              period.refundedCount,
              formatNumber(period.refundedCount, language),
              formatAmount(period.refunded, language),
            )
          : words.noRefunds}
      </p>
      <p className="summary-detail">
        {words.periodDetail(
          period.count,
          formatNumber(period.count, language),
          rate,
          period.pendingCount,
          formatNumber(period.pendingCount, language),
        )}
      </p>
    </div>
  );
}

/**
 * Above the history: what came in today and this week, and the last two weeks day by day; then,
 * apart, for the shop's signed-in people on a wide screen, what went out and the balance
 * (features/payouts; on a phone, under the payments).
 */
export function HistorySummary() {
  const { data: operator } = useQuery(meQueryOptions());
  return (
    <>
      <MoneyInSummary />
      {operator && <MoneyOutGlance mayAsk={operator.role !== 'viewer'} place="top" />}
    </>
  );
}

function MoneyInSummary() {
  const words = useWords(historyWords);
  const { data, error, isError } = useQuery(summaryQueryOptions());
  if (isError && isUnauthenticated(error)) return <SignInNotice />;
  if (isError) return <p className="summary-unavailable">{words.figuresFailed}</p>;
  if (!data) {
    // Holds the figures' place while they load, so that the history below does not move when
    // they arrive (docs/performance.md, "The web app"). Hidden: it says nothing yet.
    return (
      <div className="history-summary" aria-hidden="true">
        <div className="summary-periods">
          <Period title={words.today} />
          <Period title={words.last7Days} />
        </div>
        <DailyChart daily={[]} />
      </div>
    );
  }
  return (
    <section className="history-summary" aria-label={words.atAGlance}>
      <div className="summary-periods">
        <Period title={words.today} period={data.today} />
        <Period title={words.last7Days} period={data.last7Days} />
      </div>
      <DailyChart daily={data.daily} />
    </section>
  );
}
