/**
 * Phone retention (PHONE_RETENTION_DAYS) for till and paybill payments: M-PESA's C2B messages
 * carry the payer's number (masked in v2, a SHA-256 in v1, in full in a transaction status Result)
 * and name (docs/daraja-protocol.md §M3.3, §M5), which the payment keeps as they came. Once the
 * payment's number is masked, these go too: the number and the name in the payment's row, and in
 * every message kept for it. The receipt, the amount and the account number stay.
 */
const MASKED = '*****';

/** The flat C2B fields that name or number the payer (§M3.3). */
const PAYER_FIELDS = ['MSISDN', 'FirstName', 'MiddleName', 'LastName'];
/** The Result parameters that name a party: "2547… - Name", or a shortcode's "600100 - Shop". */
const PARTY_KEYS = new Set(['DebitPartyName', 'CreditPartyName']);
/** A shortcode's own name is the business's, not a person's: kept. */
const SHORTCODE_PARTY = /^\d{5,7} - /;

type Json = unknown;

function maskParties(value: Json): Json {
  if (Array.isArray(value)) return value.map(maskParties);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, Json>).map(([key, inner]) => {
    if (PAYER_FIELDS.includes(key) && typeof inner === 'string' && inner !== '') {
      return [key, MASKED];
    }
    return [key, maskParties(inner)];
  });
  const object = Object.fromEntries(entries) as Record<string, Json>;
  // A Result parameter: {"Key": "DebitPartyName", "Value": "254712345678 - Jane Doe"}.
  if (
    typeof object.Key === 'string' &&
    PARTY_KEYS.has(object.Key) &&
    typeof object.Value === 'string' &&
    !SHORTCODE_PARTY.test(object.Value)
  ) {
    object.Value = MASKED;
  }
  return object;
}

/**
 * A kept C2B confirmation or transaction status Result with the payer's number and name masked;
 * a body that is not JSON is kept as it is (it named no payer the payment was recorded from).
 */
export function withoutPayer(rawBody: string): string {
  let parsed: Json;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return rawBody;
  }
  return JSON.stringify(maskParties(parsed));
}
