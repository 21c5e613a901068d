/**
 * The CSV export's cells: a stranger's text that a spreadsheet could run as a formula is
 * neutralised, also when it starts with a look-alike of a formula's character (an attack found that one got through).
 */
import { describe, expect, it } from 'vitest';
import { csvLine } from './history-csv.ts';

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
