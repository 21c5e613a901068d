/** Daraja's times: its `Timestamp` and `TransactionDate` (YYYYMMDDHHmmss, East Africa Time) read and written. */
import { isoInZone } from '../lib/business-day.ts';

/**
 * Daraja speaks Kenyan time (EAT, UTC+3) in `YYYYMMDDHHmmss`: the request Timestamp and the callback
 * TransactionDate. A server in another time zone must still send Nairobi time (docs/daraja-protocol.md §3.3).
 */
export function darajaTimestamp(at: Date): string {
  // 2026-11-23T17:52:09+03:00 → 20261123175209
  return isoInZone(at.toISOString(), 'Africa/Nairobi').slice(0, 19).replace(/[-T:]/g, '');
}

/** Kenya has kept UTC+3 without daylight saving since 1960. */
const EAT_OFFSET = '+03:00';

/** 20191219102115 (EAT, number or text) → "2019-12-19T07:21:15.000Z"; null when it is not a date. */
export function eatTimestampToIso(value: number | string): string | null {
  const text = String(value);
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${EAT_OFFSET}`);
  if (Number.isNaN(date.getTime())) return null;
  // Reject rolled-over dates such as 20240231…: the round trip must give back the same digits.
  return darajaTimestamp(date) === text ? date.toISOString() : null;
}
