import type { Summary } from '@mpesa/shared/contract';
import { formatAmount, formatCompact, formatNumber } from '../../../lib/format';
import { LOCALES, type Language } from '../../../i18n/language';
import { useLanguage, useWords } from '../../../i18n/words';
import { chartWords, type ChartWords } from '../chart-words';
import { statusWords } from '../status-words';

/** The statuses of the screen readers' table, in its column order; the rest are "other". */
const COLUMNS = [
  'success',
  'refunded',
  'pending',
  'failed',
  'cancelled',
  'timeout',
  'other',
] as const;
type Column = (typeof COLUMNS)[number];

function columnOf(status: string): Column {
  return (COLUMNS as readonly string[]).includes(status) ? (status as Column) : 'other';
}

/**
 * A business day written YYYY-MM-DD, read at noon UTC so that no zone moves it to another day, in
 * the language's words: "Sun, 22 Nov" in English, "Jumapili, 22 Nov" in Kiswahili.
 */
function dayFormat(
  options: Intl.DateTimeFormatOptions,
): (language: Language) => Intl.DateTimeFormat {
  const made = new Map<Language, Intl.DateTimeFormat>();
  return (language) => {
    let format = made.get(language);
    if (!format) {
      format = new Intl.DateTimeFormat(LOCALES[language], { ...options, timeZone: 'UTC' });
      made.set(language, format);
    }
    return format;
  };
}
const DAY_OF_MONTH = dayFormat({ day: 'numeric' });
const FULL_DAY = dayFormat({ weekday: 'short', day: 'numeric', month: 'short' });
const dateOf = (day: string) => new Date(`${day}T12:00:00Z`);

/** What the chart needs of the language: its words and how it writes days and numbers. */
interface Speech {
  words: ChartWords;
  language: Language;
}

interface ChartDay {
  day: string;
  byColumn: Map<Column, number>;
  paid: number;
  paidCount: number;
  refunded: number;
  refundedCount: number;
  pending: number;
  pendingCount: number;
  unpaid: number;
  unpaidCount: number;
}

/**
 * Success is money received; refunded is money received and given back (not counted as paid, as
 * the figures' collected is net of refunds); pending is not known yet; every other status
 * (failed, cancelled, timed out…) is money not received.
 */
function chartDays(daily: Summary['daily']): ChartDay[] {
  return daily.map(({ day, byStatus }) => {
    const totals: ChartDay = {
      day,
      byColumn: new Map(),
      paid: 0,
      paidCount: 0,
      refunded: 0,
      refundedCount: 0,
      pending: 0,
      pendingCount: 0,
      unpaid: 0,
      unpaidCount: 0,
    };
    for (const { status, count, amount } of byStatus) {
      const column = columnOf(status);
      totals.byColumn.set(column, (totals.byColumn.get(column) ?? 0) + amount);
      if (status === 'success') {
        totals.paid += amount;
        totals.paidCount += count;
      } else if (status === 'refunded') {
        totals.refunded += amount;
        totals.refundedCount += count;
      } else if (status === 'pending') {
        totals.pending += amount;
        totals.pendingCount += count;
      } else {
        totals.unpaid += amount;
        totals.unpaidCount += count;
      }
    }
    return totals;
  });
}

/**
 * The axis' top: the highest bar rounded up to a round figure whose half is round too (120K, 60K),
 * never more than a third above the highest, so that the bars fill the chart.
 */
export function axisTop(highest: number): number {
  if (highest <= 0) return 100;
  const power = 10 ** Math.floor(Math.log10(highest));
  // Each half written in one decimal at most, as the axis writes figures (2.5 would give 1.25).
  const factor = [1, 1.2, 1.5, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10].find((f) => f * power >= highest);
  // Rounded: 1.2 × 100000 is 120000.00000000001 in binary.
  return Math.round((factor ?? 10) * power * 1e6) / 1e6;
}

/** A bar's height: its share of the axis, and at least a sliver when it is not nothing. */
function barHeight(amount: number, top: number): { height: string; minHeight?: string } {
  const height = `${Math.round((amount / top) * 1e4) / 100}%`;
  return amount > 0 ? { height, minHeight: '2px' } : { height };
}

/** What one day's bars say, on hover, on focus and to screen readers. */
function dayFigures(day: ChartDay, { words, language }: Speech): string[] {
  const count = (n: number) => formatNumber(n, language);
  // Refunds, rare, are named only on a day that has some.
  return [
    FULL_DAY(language).format(dateOf(day.day)),
    `${words.paid}: ${formatAmount(day.paid, language)} (${count(day.paidCount)})`,
    ...(day.refundedCount > 0
      ? [`${words.refunded}: ${formatAmount(day.refunded, language)} (${count(day.refundedCount)})`]
      : []),
    ...(day.pendingCount > 0
      ? [`${words.pending}: ${formatAmount(day.pending, language)} (${count(day.pendingCount)})`]
      : []),
    `${words.notPaid}: ${formatAmount(day.unpaid, language)} (${count(day.unpaidCount)})`,
  ];
}

function DayBars({
  day,
  top,
  late,
  speech,
}: {
  day: ChartDay;
  top: number;
  late: boolean;
  speech: Speech;
}) {
  const figures = dayFigures(day, speech);
  const height = (amount: number) => barHeight(amount, top);
  return (
    <div
      className={late ? 'chart-day chart-day-late' : 'chart-day'}
      role="img"
      tabIndex={0}
      aria-label={figures.join(', ')}
    >
      <div className="chart-bars">
        <span className="bar bar-paid" style={height(day.paid)} />
        <span className="bar bar-refunded" style={height(day.refunded)} />
        <span className="bar bar-pending" style={height(day.pending)} />
        <span className="bar bar-unpaid" style={height(day.unpaid)} />
      </div>
      <span className="chart-label">{DAY_OF_MONTH(speech.language).format(dateOf(day.day))}</span>
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
function ChartTable({ days, speech }: { days: ChartDay[]; speech: Speech }) {
  const { words, language } = speech;
  const statuses = useWords(statusWords);
  return (
    <div className="visually-hidden">
      <table>
        <caption>{words.tableCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{words.day}</th>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column === 'other' ? words.other : statuses[column]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map(({ day, byColumn }) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {COLUMNS.map((column) => (
                <td key={column}>{formatNumber(byColumn.get(column) ?? 0, language)}</td>
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
 * amount refunded, the amount still pending and the amount not paid, against an axis in KES; each day's figures show on
 * hover and on focus.
 */
export function DailyChart({ daily }: { daily: Summary['daily'] }) {
  const speech: Speech = { words: useWords(chartWords), language: useLanguage() };
  const { words, language } = speech;
  const days = chartDays(daily);
  const top = axisTop(
    Math.max(0, ...days.flatMap((day) => [day.paid, day.refunded, day.pending, day.unpaid])),
  );
  return (
    <figure className="summary-chart">
      <figcaption>{words.caption}</figcaption>
      <div className="chart">
        <div className="chart-axis" aria-hidden="true">
          {(days.length ? [top, top / 2, 0] : []).map((tick) => (
            <span key={tick}>{formatCompact(tick, language)}</span>
          ))}
        </div>
        <div className="chart-days">
          {days.map((day, index) => (
            <DayBars
              key={day.day}
              day={day}
              top={top}
              late={index >= days.length / 2}
              speech={speech}
            />
          ))}
        </div>
      </div>
      <ul className="summary-legend" aria-hidden="true">
        <li>
          <span className="legend-swatch bar-paid" />
          {words.paid}
        </li>
        <li>
          <span className="legend-swatch bar-refunded" />
          {words.refunded}
        </li>
        <li>
          <span className="legend-swatch bar-pending" />
          {words.pending}
        </li>
        <li>
          <span className="legend-swatch bar-unpaid" />
          {words.notPaid}
        </li>
      </ul>
      <ChartTable days={days} speech={speech} />
    </figure>
  );
}
