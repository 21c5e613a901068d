import { useQuery } from '@tanstack/react-query';
import type { PeriodSummary, Summary } from '@mpesa/shared/contract';
import { capitalise, formatAmount } from '../../../lib/format';
import { summaryQueryOptions } from '../api/transactions-api';
import { isUnauthenticated } from '../../auth/unauthenticated';
import { SignInNotice } from '../../auth/components/sign-in-notice';

/** The statuses the chart stacks, bottom first; the rest are counted under "other". */
const STACKED = ['success', 'failed', 'cancelled', 'timeout'] as const;
type Stack = (typeof STACKED)[number] | 'other';
const STACKS: readonly Stack[] = [...STACKED, 'other'];

function stackOf(status: string): Stack {
  return (STACKED as readonly string[]).includes(status) ? (status as Stack) : 'other';
}

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
          0000 KES
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

/** 14 days of amounts by status, as stacked bars; the same figures in a table for screen readers. */
function DailyChart({ daily }: { daily: Summary['daily'] }) {
  const amounts = daily.map((day) => {
    const byStack = new Map<Stack, number>();
    for (const { status, amount } of day.byStatus) {
      byStack.set(stackOf(status), (byStack.get(stackOf(status)) ?? 0) + amount);
    }
    return { day: day.day, byStack };
  });
  const highest = Math.max(
    1,
    ...amounts.map(({ byStack }) => [...byStack.values()].reduce((sum, amount) => sum + amount, 0)),
  );
  const width = 14 * 20;
  const height = 100;
  return (
    <figure className="summary-chart">
      <figcaption>Amounts by day and status, last 14 days</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="presentation"
        aria-hidden="true"
        focusable="false"
      >
        {amounts.map(({ day, byStack }, index) => {
          let top = height;
          return STACKS.map((stack) => {
            const amount = byStack.get(stack) ?? 0;
            if (amount === 0) return null;
            const barHeight = Math.max(1, (amount / highest) * (height - 4));
            top -= barHeight;
            return (
              <rect
                key={`${day}-${stack}`}
                className={`bar bar-${stack}`}
                x={index * 20 + 3}
                y={top}
                width={14}
                height={barHeight}
              />
            );
          });
        })}
      </svg>
      <ul className="summary-legend" aria-hidden="true">
        {STACKS.map((stack) => (
          <li key={stack}>
            <span className={`legend-swatch bar-${stack}`} />
            {capitalise(stack)}
          </li>
        ))}
      </ul>
      {/* A table ignores the width it is given, so the hiding is done by a box around it. */}
      <div className="visually-hidden">
        <table>
          <caption>Amounts in KES by day and status, last 14 days</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {STACKS.map((stack) => (
                <th key={stack} scope="col">
                  {capitalise(stack)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {amounts.map(({ day, byStack }) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {STACKS.map((stack) => (
                  <td key={stack}>{byStack.get(stack) ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
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
