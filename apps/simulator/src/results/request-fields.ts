/**
 * The fields of a Result API's request as the simulator reads them (docs/daraja-protocol.md §M9):
 * in order, each failure named as Daraja names it, `Bad Request - Invalid <Field>`, with the key
 * Daraja expects (a misspelled key is a missing field). Numeric fields take a number or a string
 * of digits; unknown extra keys are ignored.
 */
import { commandWord } from '../daraja/command-words.ts';
import type { Fields } from '../daraja/gate.ts';
import { toCents, type Cents } from '../money/amounts.ts';
import { isUrl, type Checked } from '../operations/stk/validation.ts';

/** The texts' limit: Remarks and Occasion take up to 100 characters (§M5, §M7). */
export const MAX_TEXT = 100;

class InvalidField extends Error {
  readonly field: string;
  constructor(field: string) {
    super(`Invalid ${field}`);
    this.field = field;
  }
}

/** What every Result API sends: where its Result and its timeout notice go. */
export interface ResultUrls {
  resultUrl: string;
  queueTimeoutUrl: string;
}

export class FieldReader {
  readonly #body: Fields;
  readonly #strict: boolean;

  /** `strict`: SIM_STRICT_LENGTHS, which refuses a CommandID with spaces around it. */
  constructor(body: Fields, strict: boolean) {
    this.#body = body;
    this.#strict = strict;
  }

  /** Whether the request holds the field at all (an empty string counts as absent). */
  has(field: string): boolean {
    const value = this.#body[field];
    return value !== undefined && value !== null && value !== '';
  }

  /** Ends the reading: `field` is not valid. */
  invalid(field: string): never {
    throw new InvalidField(field);
  }

  /** `CommandID`, which must be `word` (spaces around it taken unless strict). */
  command<Word extends string>(word: Word): Word {
    const found = commandWord(this.#body.CommandID, [word], this.#strict);
    if (found === null) throw new InvalidField('CommandID');
    return found;
  }

  /** A numeric field, as its digits, that must match `form`. */
  digits(field: string, form: RegExp): string {
    const value = this.#body[field];
    const text =
      typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
        ? String(value)
        : typeof value === 'string'
          ? value.trim()
          : '';
    if (!/^[0-9]+$/.test(text) || !form.test(text)) throw new InvalidField(field);
    return text;
  }

  /** A numeric field that must be one of `values`. */
  oneOf<Value extends string>(field: string, values: readonly Value[]): Value {
    const text = this.digits(field, /^[0-9]+$/);
    const found = values.find((value) => value === text);
    if (found === undefined) throw new InvalidField(field);
    return found;
  }

  /** A text, not blank, of `min` to MAX_TEXT characters. */
  text(field: string, min = 1): string {
    const value = this.#body[field];
    if (typeof value !== 'string' || value.trim().length < min || value.length > MAX_TEXT) {
      throw new InvalidField(field);
    }
    return value;
  }

  /** Shillings, as a number or text, with at most two decimals: whole cents above 0. */
  amount(field: string): Cents {
    const value = this.#body[field];
    const cents = typeof value === 'number' || typeof value === 'string' ? toCents(value) : null;
    if (cents === undefined || cents === null || cents <= 0) throw new InvalidField(field);
    return cents;
  }

  /** ResultURL and QueueTimeOutURL: http or https URLs, no spaces. */
  urls(): ResultUrls {
    for (const field of ['ResultURL', 'QueueTimeOutURL']) {
      if (!isUrl(this.#body[field])) throw new InvalidField(field);
    }
    return {
      resultUrl: this.#body.ResultURL as string,
      queueTimeoutUrl: this.#body.QueueTimeOutURL as string,
    };
  }

  /**
   * The optional Occasion, under either spelling Daraja's own pages use (`Occasion`,
   * `Occassion`, §M4.1): undefined when neither is sent.
   */
  occasion(): string | undefined {
    const field = this.has('Occasion') ? 'Occasion' : 'Occassion';
    return this.has(field) ? this.text(field) : undefined;
  }
}

/** Reads a request with `read`; the first field wrong ends it, named. */
export function readFields<T>(
  body: Fields,
  strict: boolean,
  read: (fields: FieldReader) => T,
): Checked<T> {
  try {
    return { ok: true, value: read(new FieldReader(body, strict)) };
  } catch (error) {
    if (error instanceof InvalidField) return { ok: false, field: error.field };
    throw error;
  }
}
