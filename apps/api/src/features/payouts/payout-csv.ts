/**
 * A batch of payouts from a CSV file: a header naming the columns (`to`, `amount`, `reason`, and
 * optionally `kind` and `account`, in any order and case), then one payout a row. Every row is
 * checked as a single payout is (checkPayoutLine); the file is taken whole, or refused whole with
 * each row's problems. Quotes as RFC 4180 has them; a byte-order mark, CRLF and blank lines are
 * taken.
 */
import {
  PAYOUT_BATCH_MAX_ROWS,
  checkPayoutLine,
  type PayoutLine,
} from '@mpesa/shared/contract-payouts';

export interface RowProblem {
  /** 1 is the first row after the header; 0 the header itself. */
  row: number;
  field: string;
  message: string;
}

type Column = 'kind' | 'to' | 'account' | 'amount' | 'reason';
const REQUIRED: readonly Column[] = ['to', 'amount', 'reason'];

/** The file's records, each a list of fields; null when a quote is never closed. */
export function csvRecords(text: string): string[][] | null {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (quoted) return null;
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records.filter((each) => each.some((value) => value.trim() !== ''));
}

/** The file's payouts, or every problem it has. */
export function readPayoutCsv(
  text: string,
): { ok: true; lines: PayoutLine[] } | { ok: false; problems: RowProblem[] } {
  const records = csvRecords(text);
  if (records === null) {
    return {
      ok: false,
      problems: [{ row: 0, field: 'csv', message: 'A quote (") is opened and never closed.' }],
    };
  }
  const [header, ...rows] = records;
  const names = (header ?? []).map((name) => name.trim().toLowerCase());
  const missing = REQUIRED.filter((column) => !names.includes(column));
  if (!header || missing.length > 0) {
    return {
      ok: false,
      problems: [
        {
          row: 0,
          field: 'csv',
          message: `The first row must name the columns: to, amount, reason (and kind, account if wanted). Missing: ${missing.join(', ') || 'to, amount, reason'}.`,
        },
      ],
    };
  }
  if (rows.length === 0) {
    return { ok: false, problems: [{ row: 0, field: 'csv', message: 'The file has no payouts.' }] };
  }
  if (rows.length > PAYOUT_BATCH_MAX_ROWS) {
    return {
      ok: false,
      problems: [
        {
          row: 0,
          field: 'csv',
          message: `A file may hold at most ${PAYOUT_BATCH_MAX_ROWS} payouts; this one has ${rows.length}.`,
        },
      ],
    };
  }
  const at = (row: string[], column: Column) => {
    const index = names.indexOf(column);
    return index < 0 ? undefined : row[index];
  };
  const lines: PayoutLine[] = [];
  const problems: RowProblem[] = [];
  rows.forEach((row, index) => {
    if (row.length > names.length) {
      problems.push({
        row: index + 1,
        field: 'csv',
        message: `This row has ${row.length} fields; the header names ${names.length}.`,
      });
      return;
    }
    const checked = checkPayoutLine({
      kind: at(row, 'kind'),
      to: at(row, 'to') ?? '',
      account: at(row, 'account'),
      amount: at(row, 'amount') ?? '',
      reason: at(row, 'reason') ?? '',
    });
    if (checked.ok) lines.push(checked.line);
    else for (const problem of checked.problems) problems.push({ row: index + 1, ...problem });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, lines };
}
