/**
 * The CSV export's cells: a stranger's text that a spreadsheet could run as a formula is
 * neutralised, also when it starts with a look-alike of a formula's character (an attack found
 * that one got through); the header names the time zone; phone numbers stay text.
 */
import { describe, expect, it } from 'vitest';
import { csvHeader, csvLine, csvRecord, type CsvRow, zoneLabel } from './history-csv.ts';

const line = (value: string) => csvLine([value]).slice(0, -2);

describe('a CSV cell', () => {
  it.each([
    ['=HYPERLINK(x)', "'=HYPERLINK(x)"],
    ['+254', "'+254"],
    ['-5', "'-5"],
    ['@sum', "'@sum"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
  ])('neutralises %j, which starts with a formula’s character', (value, written) => {
    expect(line(value)).toBe(written);
  });

  it.each([
    ['\uFF1D', 'full-width equals'],
    ['\uFF0B', 'full-width plus'],
    ['\uFF0D', 'full-width hyphen-minus'],
    ['\uFF20', 'full-width commercial at'],
    ['\uFE66', 'small equals'],
    ['\uFE62', 'small plus'],
    ['\uFE63', 'small hyphen-minus'],
    ['\uFE6B', 'small commercial at'],
    ['\u207C', 'superscript equals'],
    ['\u208A', 'subscript plus'],
  ])('neutralises a cell that starts with %j (%s), which NFKC turns into one', (start) => {
    expect(line(`${start}HYPERLINK("http://evil","x")`)).toBe(
      `"'${start}HYPERLINK(""http://evil"",""x"")"`,
    );
    expect(line(`${start}1+1`)).toBe(`'${start}1+1`);
  });

  it.each([
    ['INV-7', 'ASCII with a formula’s character inside'],
    ['Malipo ya huduma', 'plain text'],
    ['Jüri', 'a letter that NFKC leaves a letter'],
    ['\uFF21BC', 'full-width letters'],
    ['\u2212 5', 'the minus sign (U+2212), which NFKC keeps'],
    ['\u2260 x', 'not-equal, whose canonical decomposition starts with = but NFKC composes again'],
    ['', 'an empty cell'],
  ])('leaves %j (%s) as it is', (value) => {
    expect(line(value)).toBe(value);
  });
});

describe('the header’s time zone', () => {
  const NOV = new Date('2026-11-25T12:00:00Z');
  it.each([
    ['Africa/Nairobi', 'East Africa Time, UTC+03:00'],
    ['UTC', 'Coordinated Universal Time, UTC+00:00'],
    ['Asia/Kolkata', 'India Standard Time, UTC+05:30'],
    // Its clocks change: the times carry no offset, so the header says both.
    ['Europe/London', 'Europe/London, UTC+00:00 or UTC+01:00'],
  ])('names %s as %j', (zone, label) => {
    expect(zoneLabel(zone, NOV)).toBe(label);
  });

  it('opens the file with a byte-order mark and quotes a heading with a comma', () => {
    const header = csvHeader('Africa/Nairobi', NOV);
    expect(header.startsWith('\uFEFFPayment ID,"Created at (East Africa Time, UTC+03:00)",')).toBe(
      true,
    );
  });
});

describe('a CSV record', () => {
  const row: CsvRow = {
    id: 'tx-1',
    created_at: '2026-11-25T09:20:47.000Z',
    reference: 'INV-1',
    description: 'Malipo',
    phone_number: '254712345678',
    amount: 250,
    status: 'success',
    mpesa_receipt_number: null,
    transaction_date: null,
    result_code: null,
    response_description: null,
    channel: 'prompt',
    payer_name: null,
    link_id: null,
  };

  it('writes a number in groups joined by hyphens, text to a spreadsheet and plain to a script', () => {
    expect(csvRecord(row, 'Africa/Nairobi')).toBe(
      'tx-1,2026-11-25 12:20:47,INV-1,Malipo,254-712-345-678,250,success,,,,,Prompt,,\r\n',
    );
    // Paid through a payment link: its id last.
    expect(csvRecord({ ...row, link_id: 'link-1' }, 'UTC')).toMatch(/,Prompt,,link-1\r\n$/);
    expect(csvRecord({ ...row, phone_number: '254112345678' }, 'UTC')).toContain(
      ',Malipo,254-112-345-678,250,',
    );
    // Digits of another length (none is stored: numbers are 254…, masks have * or #) the same way.
    expect(csvRecord({ ...row, phone_number: '0712345678' }, 'UTC')).toContain(
      ',Malipo,0-712-345-678,250,',
    );
  });

  it('writes a masked number as it is stored: its asterisks make it text', () => {
    expect(csvRecord({ ...row, phone_number: '254*****5678' }, 'UTC')).toContain(
      ',2026-11-25 09:20:47,INV-1,Malipo,254*****5678,250,',
    );
    expect(csvRecord({ ...row, phone_number: '' }, 'UTC')).toContain(',Malipo,,250,');
  });

  it('never writes a phone cell as a formula, and neutralises one that looks like it', () => {
    expect(csvRecord({ ...row, phone_number: '=1+1' }, 'UTC')).toContain(",Malipo,'=1+1,250,");
    expect(csvRecord({ ...row, phone_number: '+254712345678' }, 'UTC')).toContain(
      ",Malipo,'+254712345678,250,",
    );
    expect(csvRecord(row, 'UTC')).not.toContain('=');
  });

  it("says how a payment came in the header's language, and neutralises a payer's name", () => {
    const till: CsvRow = {
      ...row,
      channel: 'till',
      phone_number: '2547 ***** 126',
      payer_name: "=cmd|' /C calc'!A0",
      status: 'refunded',
      mpesa_receipt_number: 'UF1E26WQJZ',
    };
    expect(csvRecord(till, 'UTC')).toMatch(
      /,2547 \*\*\*\*\* 126,250,refunded,UF1E26WQJZ,,,,Till,'=cmd\|' \/C calc'!A0,\r\n$/,
    );
    expect(csvRecord(till, 'UTC', 'sw')).toContain(',,,Till,');
    expect(csvRecord({ ...till, channel: 'paybill', payer_name: 'JOHN DOE' }, 'UTC')).toMatch(
      /,Paybill,JOHN DOE,\r\n$/,
    );
    expect(csvRecord(row, 'UTC', 'sw')).toMatch(/,Ombi,,\r\n$/);
    const nov = new Date('2026-11-25T12:00:00Z');
    expect(csvHeader('UTC', nov)).toMatch(
      /,Result description,Paid through,Payer's name,Payment link\r\n$/,
    );
    expect(csvHeader('UTC', nov, 'sw')).toMatch(
      /,Njia ya malipo,Jina la mlipaji,Kiungo cha malipo\r\n$/,
    );
  });
});
