/**
 * C2B Register URL: tells Daraja where to ask about (validation) and tell of (confirmation) the
 * payments customers make to a till or paybill from their phones' menus (docs/daraja-protocol.md
 * §M3.1). v1 confirmations carry the payer's number as a SHA-256, v2 masked. The sandbox lets a
 * shortcode register again and again; production takes it once (`500.003.1001 Urls are already
 * registered.`), which the caller reports as it is.
 */
import { z } from 'zod';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { DarajaError } from './daraja-error.ts';
import { darajaText, storable, type DarajaTransport } from './transport.ts';

export interface C2bRegistration {
  shortcode: string;
  version: 'v1' | 'v2';
  /** What M-PESA does when the validation URL does not answer in time (§M3.4). */
  responseType: 'Completed' | 'Cancelled';
  confirmationUrl: string;
  validationUrl: string;
}

/** Daraja's answer, with its own spelling `OriginatorCoversationID` (§M3.1). */
const registerAnswerSchema = z.looseObject({
  ResponseCode: storable(MAX_LENGTH.resultCode).optional(),
  ResponseDescription: darajaText.default(''),
});

/** Words Daraja refuses in a registered URL (§M3.1), matched anywhere, as the simulator does. */
export const FORBIDDEN_URL_WORDS = ['m-pesa', 'mpesa', 'safaricom', 'exe', 'cmd', 'sql', 'query'];

/** The first forbidden word in a URL, if any. */
export function forbiddenWordIn(url: string): string | undefined {
  const lower = url.toLowerCase();
  return FORBIDDEN_URL_WORDS.find((word) => lower.includes(word));
}

export async function registerC2bUrls(
  transport: DarajaTransport,
  registration: C2bRegistration,
): Promise<{ description: string }> {
  const answer = await transport.postJson(`/mpesa/c2b/${registration.version}/registerurl`, {
    ShortCode: registration.shortcode,
    ResponseType: registration.responseType,
    ConfirmationURL: registration.confirmationUrl,
    ValidationURL: registration.validationUrl,
  });
  const parsed = registerAnswerSchema.safeParse(answer.body);
  // Before 2019 a success had no ResponseCode (§M3.1): a 200 without one is taken.
  const code = parsed.success ? (parsed.data.ResponseCode ?? '0') : undefined;
  if (answer.status !== 200 || code !== '0') {
    throw new DarajaError(
      'rejected',
      `Daraja refused the C2B URLs: HTTP ${answer.status}${parsed.success ? ` ${parsed.data.ResponseDescription}` : ''}`,
      { httpStatus: answer.status, ...(code === undefined ? {} : { errorCode: code }) },
    );
  }
  return { description: parsed.data?.ResponseDescription ?? '' };
}
