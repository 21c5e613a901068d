/** The STK push's password (docs/daraja-protocol.md §3.1) and the shortcode it proves. */
import { darajaTimestamp } from './time.ts';

/** Daraja's STK Password: base64 of shortcode, passkey and timestamp, concatenated (docs/daraja-protocol.md §3.1). */
export function stkPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`, 'utf8').toString('base64');
}

/** The paybill or till and its passkey, which every STK request (push and query) proves. */
export interface StkShortcode {
  shortcode: string;
  passkey: string;
}

/** The fields every STK request starts with: the shortcode, its Password, and their Timestamp. */
export function stkCredentials({ shortcode, passkey }: StkShortcode, at: Date) {
  const timestamp = darajaTimestamp(at);
  return {
    BusinessShortCode: shortcode,
    Password: stkPassword(shortcode, passkey, timestamp),
    Timestamp: timestamp,
  };
}
