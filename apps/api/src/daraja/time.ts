/**
 * Daraja speaks Kenyan time (EAT, UTC+3) in `YYYYMMDDHHmmss`: the request Timestamp and the callback
 * TransactionDate. A server in another time zone must still send Nairobi time (PROTOCOL.md §3.3).
 */
const nairobi = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Africa/Nairobi',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export function darajaTimestamp(at: Date): string {
  const parts = Object.fromEntries(
    nairobi.formatToParts(at).map((part) => [part.type, part.value]),
  );
  return `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}`;
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
