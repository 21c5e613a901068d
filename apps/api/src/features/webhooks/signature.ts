/**
 * How a webhook is signed (docs/webhooks.md, "Verifying a signature"), as Stripe signs its own: the
 * header `Mpesa-Signature: t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
 * endpoint's secret. The timestamp is signed with the body, so that a receiver that refuses a `t`
 * more than SIGNATURE_TOLERANCE_S away from its clock cannot be replayed an old event.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'Mpesa-Signature';
export const EVENT_ID_HEADER = 'Mpesa-Event-Id';
/** How far from its own clock a receiver should accept `t`: five minutes, as Stripe's libraries do. */
export const SIGNATURE_TOLERANCE_S = 300;

export const SECRET_PREFIX = 'whsec_';
/** How many of a secret's first characters are shown after it was made, to tell secrets apart. */
const SHOWN_LENGTH = 12;

/** A new endpoint secret: `whsec_` and 32 random bytes (base64url). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

export const secretPrefix = (secret: string) => secret.slice(0, SHOWN_LENGTH);

/** The header's value for `body` sent at `at`. */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
