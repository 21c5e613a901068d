/**
 * The fields of C2B's register URL and simulate requests as the simulator checks them
 * (docs/daraja-protocol.md §M3.1, §M3.2, §M3.6). Each failure names the field as Daraja does:
 * "Bad Request - Invalid <Field>"; a misspelled key is a missing field.
 */
import type { Failure } from '../../catalogue.ts';
import { commandWord } from '../../daraja/command-words.ts';
import type { Fields } from '../../daraja/gate.ts';
import { MSISDN, SHORTCODE } from '../../money/accounts.ts';
import { amountOf, isUrl, numericText, type Checked } from '../stk/validation.ts';
import { COMMAND_IDS, RESPONSE_TYPES, type CommandId, type ResponseType } from './c2b-kept.ts';

/** The longest BillRefNumber (§M3.2). */
export const MAX_BILL_REF = 20;

/**
 * The words Daraja refuses in a URL, any case (§M3.1): the register page's list and the FAQ's
 * `mpesa`. Matched anywhere in the URL, inside other words too (`/execute`, `/sqlite`): whether
 * Daraja does is not known, and a URL the simulator takes is then one Daraja takes. Longer words
 * first, so that the refusal names `EXEC` in `/exec`, not `EXE`.
 */
export const FORBIDDEN_WORDS = [
  'M-PESA',
  'MPESA',
  'SAFARICOM',
  'EXEC',
  'EXE',
  'CMD',
  'SQL',
  'QUERY',
];

/** Daraja's refusal of a URL with a forbidden word, naming the word in capitals, as seen in 2019. */
export const forbiddenWord = (field: string, word: string): Failure => [
  400,
  '400.003.02',
  `Bad Request - Invalid ${field} - URL has the word ${word}`,
];

/** The first forbidden word a URL holds, if any. */
export function forbiddenWordIn(url: string): string | undefined {
  const upper = url.toUpperCase();
  return FORBIDDEN_WORDS.find((word) => upper.includes(word));
}

export interface RegisterRequest {
  shortCode: string;
  responseType: ResponseType;
  confirmationUrl: string;
  validationUrl: string;
}

export interface SimulateRequest {
  shortCode: string;
  commandId: CommandId;
  /** Whole shillings. */
  amount: number;
  msisdn: string;
  billRefNumber: string;
}

/** Digits matching `form`, given as a number or a string (Daraja takes both). */
function digits(value: unknown, form: RegExp): string | null {
  const text = numericText(value);
  return text !== null && form.test(text) ? text : null;
}

/**
 * A register URL body, checked in the order of its fields; then the URLs' words (ValidationURL
 * first, the field named in the one refusal seen) and, under SIM_C2B_PRODUCTION_URLS, HTTPS.
 */
export function checkRegister(
  body: Fields,
  productionUrls: boolean,
): Checked<RegisterRequest> | { ok: false; failure: Failure } {
  const shortCode = digits(body.ShortCode, SHORTCODE);
  if (shortCode === null) return { ok: false, field: 'ShortCode' };
  const responseType = RESPONSE_TYPES.find((type) => type === body.ResponseType);
  if (responseType === undefined) return { ok: false, field: 'ResponseType' };
  const urls = { ConfirmationURL: body.ConfirmationURL, ValidationURL: body.ValidationURL };
  for (const [field, url] of Object.entries(urls)) {
    if (!isUrl(url)) return { ok: false, field };
    if (productionUrls && !String(url).startsWith('https:')) return { ok: false, field };
  }
  for (const field of ['ValidationURL', 'ConfirmationURL'] as const) {
    const word = forbiddenWordIn(String(urls[field]));
    if (word) return { ok: false, failure: forbiddenWord(field, word) };
  }
  return {
    ok: true,
    value: {
      shortCode,
      responseType,
      confirmationUrl: String(urls.ConfirmationURL),
      validationUrl: String(urls.ValidationURL),
    },
  };
}

/** BillRefNumber: text or a number, up to 20 characters; absent or null (a till's) is "". */
function billRef(value: unknown): string | null {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'number' ? numericText(value) : value;
  return typeof text === 'string' && text.length <= MAX_BILL_REF ? text : null;
}

export function checkSimulate(body: Fields, strict: boolean): Checked<SimulateRequest> {
  const shortCode = digits(body.ShortCode, SHORTCODE);
  if (shortCode === null) return { ok: false, field: 'ShortCode' };
  const commandId = commandWord(body.CommandID, COMMAND_IDS, strict);
  if (commandId === null) return { ok: false, field: 'CommandID' };
  const amount = amountOf(body.Amount);
  if (amount === null) return { ok: false, field: 'Amount' };
  const msisdn = digits(body.Msisdn, MSISDN);
  if (msisdn === null) return { ok: false, field: 'Msisdn' };
  const billRefNumber = billRef(body.BillRefNumber);
  if (billRefNumber === null) return { ok: false, field: 'BillRefNumber' };
  return { ok: true, value: { shortCode, commandId, amount, msisdn, billRefNumber } };
}
