/**
 * Phone number rules.
 *
 * The browser applies the pattern of docs/product.md §5: a prefix of 07, 254, +254, 0 or +1
 * followed by 8 or 9 digits. It is deliberately loose; the server is the authority and accepts only
 * numbers Daraja can prompt (docs/daraja-protocol.md §7), which it stores and sends as 254XXXXXXXXX.
 */

export const CLIENT_PHONE_PATTERN = /^(?:07|254|\+254|0|\+1)[0-9]{8,9}$/;

/**
 * What people put between a number's digits ("+254 712 345 678", "0712-345-678", "(0712) 345678"):
 * taken out before any pattern is applied, in the browser and on the server alike.
 */
const SEPARATORS = /[\s\-().]/g;

export function isClientValidPhone(input: string): boolean {
  return CLIENT_PHONE_PATTERN.test(input.replace(SEPARATORS, ''));
}

/** The national number after the country code: 7XXXXXXXX or 1XXXXXXXX. */
const SUBSCRIBER = '([17][0-9]{8})';
const ACCEPTED = [
  new RegExp(`^0${SUBSCRIBER}$`),
  new RegExp(`^${SUBSCRIBER}$`),
  new RegExp(`^254${SUBSCRIBER}$`),
  new RegExp(`^\\+254${SUBSCRIBER}$`),
];

/**
 * Normalises a Kenyan mobile number to Daraja's 12-digit form (2547XXXXXXXX or 2541XXXXXXXX).
 * Accepts 07…, 01…, 7…, 1…, 2547…, 2541… and +254… with spaces, dashes, dots and brackets anywhere.
 * Returns null for anything else.
 */
export function normaliseKenyanPhone(input: string): string | null {
  if (input.length > 40) return null;
  const compact = input.replace(SEPARATORS, '');
  for (const pattern of ACCEPTED) {
    const match = pattern.exec(compact);
    if (match) return `254${match[1]}`;
  }
  return null;
}

/**
 * 254712345678 → 0712345678: a stored number as a Kenyan payer writes it (and as the form's own
 * check accepts it). Anything else is returned as it is.
 */
export function localPhoneNumber(phone: string): string {
  const match = /^254([17][0-9]{8})$/.exec(phone);
  return match ? `0${match[1]}` : phone;
}

/**
 * 254712345678 → "0712 ••• 678": enough of the number for its owner to recognise it, as the payer's
 * own page shows it when the history is for operators only. A number not stored whole (masked by
 * PHONE_RETENTION_DAYS) is shown as stored.
 */
export function recognisablePhone(phone: string): string {
  const local = localPhoneNumber(phone);
  return /^0[17][0-9]{8}$/.test(local) ? `${local.slice(0, 4)} ••• ${local.slice(-3)}` : phone;
}

/** 254712345678 → 2547****5678, for logs and anything else that must not hold a full number. */
export function maskPhone(phone: string): string {
  if (phone.length < 8) return '*'.repeat(phone.length);
  return `${phone.slice(0, 4)}${'*'.repeat(phone.length - 8)}${phone.slice(-4)}`;
}

/**
 * Daraja's CheckoutRequestID ends with the payer's 9-digit subscriber number
 * (ws_CO_221120261629255247 08374149): logs keep all but its last four digits masked.
 */
export function maskCheckoutId(checkoutRequestId: string): string {
  const match = /^(ws_CO_\d{17})(\d{5})(\d{4})$/.exec(checkoutRequestId);
  return match ? `${match[1]}*****${match[3]}` : checkoutRequestId;
}
