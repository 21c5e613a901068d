import type { Summary } from '@mpesa/shared/contract';
import { capitalise, formatAmount, formatCompact, formatNumber } from '../../../lib/format';

/** The chart's words (docs/product.md §"Route /transactions": the caption is the specification's). */
const CAPTION = 'Amounts by day and status, last 14 days';
const TABLE_CAPTION = 'Amounts in KES by day and status, last 14 days';
const PAID = 'Paid';
const NOT_PAID = 'Not paid';
const DAY = 'Day';

/** The statuses of the screen readers' table, in its column order; the rest are "other". */
const COLUMNS = ['success', 'failed', 'cancelled', 'timeout', 'other'] as const;
type Column = (typeof COLUMNS)[number];

function columnOf(status: string): Column {
  return (COLUMNS as readonly string[]).includes(status) ? (status as Column) : 'other';
}

/** A business day written YYYY-MM-DD, read at noon UTC so that no zone moves it to another day. */
const dayFormat = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-KE', { ...options, timeZone: 'UTC' });
const DAY_OF_MONTH = dayFormat({ day: 'numeric' });
const FULL_DAY = dayFormat({ weekday: 'short', day: 'numeric', month: 'short' });
const dateOf = (day: string) => new Date(`${day}T12:00:00Z`);

interface ChartDay {
  day: string;
  byColumn: Map<Column, number>;
  paid: number;
  paidCount: number;
  unpaid: number;
  unpaidCount: number;
}

/** Success is money received; every other status (failed, cancelled, timed out, pending…) is not. */
function chartDays(daily: Summary['daily']): ChartDay[] {
  return daily.map(({ day, byStatus }) => {
    const totals: ChartDay = {
      day,
      byColumn: new Map(),
      paid: 0,
      paidCount: 0,
      unpaid: 0,
      unpaidCount: 0,
    };
    for (const { status, count, amount } of byStatus) {
      const column = columnOf(status);
      totals.byColumn.set(column, (totals.byColumn.get(column) ?? 0) + amount);
      if (status === 'success') {
        totals.paid += amount;
        totals.paidCount += count;
      } else {
        totals.unpaid += amount;
        totals.unpaidCount += count;
      }
    }
    return totals;
  });
}

/** The axis' top: the highest bar rounded up to 1, 2, 2.5 or 5 times a power of ten. */
export function axisTop(highest: number): number {
  if (highest <= 0) return 100;
  const power = 10 ** Math.floor(Math.log10(highest));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= highest) ?? 10;
  return step * power;
}

/** What one day's bars say, on hover, on focus and to screen readers. */
function dayFigures(day: ChartDay): string[] {
  return [
    FULL_DAY.format(dateOf(day.day)),
    `${PAID}: ${formatAmount(day.paid)} (${day.paidCount})`,
    `${NOT_PAID}: ${formatAmount(day.unpaid)} (${day.unpaidCount})`,
  ];
}

function DayBars({ day, top, late }: { day: ChartDay; top: number; late: boolean }) {
  const figures = dayFigures(day);
  const height = (amount: number) => ({ height: `${Math.round((amount / top) * 1e4) / 100}%` });
  return (
    <div
      className={late ? 'chart-day chart-day-late' : 'chart-day'}
      role="img"
      tabIndex={0}
      aria-label={figures.join(', ')}
    >
      <div className="chart-bars">
        <span className="bar bar-paid" style={height(day.paid)} />
        <span className="bar bar-unpaid" style={height(day.unpaid)} />
      </div>
      <span className="chart-label">{DAY_OF_MONTH.format(dateOf(day.day))}</span>
      <span className="chart-tip">
        {figures.map((line) => (
          <span key={line}>{line}</span>
        ))}
      </span>
    </div>
  );
}

/** The same figures by status, for screen readers (a table ignores the width it is given, so
 * the hiding is done by a box around it). */
function ChartTable({ days }: { days: ChartDay[] }) {
  return (
    <div className="visually-hidden">
      <table>
        <caption>{TABLE_CAPTION}</caption>
        <thead>
          <tr>
            <th scope="col">{DAY}</th>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {capitalise(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map(({ day, byColumn }) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {COLUMNS.map((column) => (
                <td key={column}>{formatNumber(byColumn.get(column) ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * 14 days of amounts: for each day the paid amount and, beside it (never on top of it), the
 * amount not paid, against an axis in KES; each day's figures show on hover and on focus.
 */
export function DailyChart({ daily }: { daily: Summary['daily'] }) {
  const days = chartDays(daily);
  const top = axisTop(Math.max(0, ...days.flatMap((day) => [day.paid, day.unpaid])));
  return (
    <figure className="summary-chart">
      <figcaption>{CAPTION}</figcaption>
      <div className="chart">
        <div className="chart-axis" aria-hidden="true">
          {(days.length ? [top, top / 2, 0] : []).map((tick) => (
            <span key={tick}>{formatCompact(tick)}</span>
          ))}
        </div>
        <div className="chart-days">
          {days.map((day, index) => (
            <DayBars key={day.day} day={day} top={top} late={index >= days.length / 2} />
          ))}
        </div>
      </div>
      <ul className="summary-legend" aria-hidden="true">
        <li>
          <span className="legend-swatch bar-paid" />
          {PAID}
        </li>
        <li>
          <span className="legend-swatch bar-unpaid" />
          {NOT_PAID}
        </li>
      </ul>
      <ChartTable days={days} />
    </figure>
  );
}
