/**
 * The settings of money going back and money coming in by the phone's menu (
 * docs/product.md §10, §11): the initiator that refunds (Daraja's Reversal and transaction status
 * APIs, docs/daraja-protocol.md §M2, §M5, §M7), and the shortcode whose C2B payments the history
 * takes (§M3).
 */
import path from 'node:path';
import { REPO_ROOT } from './constants.ts';
import type { Env } from './env-schema.ts';
import type { Problems } from './problems.ts';

/** The simulator's initiator (its SIM_INITIATOR_NAME and SIM_INITIATOR_PASSWORD defaults). */
export const SIMULATOR_INITIATOR = { name: 'testapi', password: 'Safaricom999!*!' } as const;
/** The certificate the simulator reads SecurityCredentials with (GET /_sim/certificate serves it). */
export const SIMULATOR_CERTIFICATE_PATH = path.join(
  REPO_ROOT,
  'apps/simulator/src/keys/security-credential-certificate.pem',
);
/** The till the virtual phone pays in simulator mode unless MPESA_C2B_SHORTCODE says otherwise. */
export const SIMULATOR_C2B_SHORTCODE = '600100';

/**
 * Who asks Daraja for reversals and transaction status: the initiator's name and either the
 * SecurityCredential as the portal made it, or the password and the certificate to make it from.
 * The simulator's own in simulator mode; elsewhere refunds are off (`initiator` undefined) until set.
 */
export function refundSettings(env: Env, problems: Problems) {
  const simulated = env.MPESA_ENV === 'simulator';
  const name = env.MPESA_INITIATOR_NAME ?? (simulated ? SIMULATOR_INITIATOR.name : undefined);
  const password =
    env.MPESA_INITIATOR_PASSWORD ?? (simulated ? SIMULATOR_INITIATOR.password : undefined);
  const certificatePath =
    env.MPESA_CERTIFICATE_PATH ?? (simulated ? SIMULATOR_CERTIFICATE_PATH : undefined);
  problems.require(
    ['REFUND_GIVE_UP_S', 'REFUND_CHECK_AFTER_S'],
    env.REFUND_GIVE_UP_S >= env.REFUND_CHECK_AFTER_S,
    'REFUND_GIVE_UP_S must not be shorter than REFUND_CHECK_AFTER_S (a refund would be failed before M-PESA is first asked about it)',
  );
  const credentialGiven = env.MPESA_SECURITY_CREDENTIAL !== undefined;
  problems.require(
    ['MPESA_INITIATOR_NAME'],
    name !== undefined || (env.MPESA_INITIATOR_PASSWORD === undefined && !credentialGiven),
    'MPESA_INITIATOR_NAME is required with MPESA_INITIATOR_PASSWORD or MPESA_SECURITY_CREDENTIAL (the initiator they belong to)',
  );
  problems.require(
    ['MPESA_INITIATOR_PASSWORD', 'MPESA_CERTIFICATE_PATH'],
    name === undefined ||
      credentialGiven ||
      (password !== undefined && certificatePath !== undefined),
    'MPESA_INITIATOR_NAME needs MPESA_SECURITY_CREDENTIAL, or MPESA_INITIATOR_PASSWORD and MPESA_CERTIFICATE_PATH (Safaricom’s certificate for your environment) to make it from',
  );
  const initiator =
    name === undefined
      ? undefined
      : Object.freeze({
          name,
          securityCredential: env.MPESA_SECURITY_CREDENTIAL,
          password,
          certificatePath:
            certificatePath === undefined ? undefined : path.resolve(certificatePath),
        });
  return Object.freeze({
    /** Undefined: refunds are not set up (the owner is told so). */
    initiator,
    /** A payment older than this is not refunded (our choice: M-PESA publishes no limit). */
    maxAgeDays: env.REFUND_MAX_AGE_DAYS,
    /** A reversal whose Result has not come is asked about (transaction status) after this. */
    checkAfterS: env.REFUND_CHECK_AFTER_S,
    /** A reversal M-PESA still has no record of after this is failed (the owner may ask again). */
    giveUpS: env.REFUND_GIVE_UP_S,
  });
}

/**
 * The shortcode whose till or paybill payments (C2B) the history takes, undefined for none: the
 * simulator's till in simulator mode, otherwise MPESA_C2B_SHORTCODE. Its URLs are registered at
 * start-up (`start`, the default outside production, where a registration cannot be undone
 * without Safaricom) or by `npm run c2b:register` (`command`).
 */
export function c2bSettings(env: Env, problems: Problems) {
  const simulated = env.MPESA_ENV === 'simulator';
  problems.require(
    ['C2B_MIN_AMOUNT', 'C2B_MAX_AMOUNT'],
    env.C2B_MIN_AMOUNT <= env.C2B_MAX_AMOUNT,
    'C2B_MIN_AMOUNT must not be more than C2B_MAX_AMOUNT',
  );
  const shortcode = env.MPESA_C2B_SHORTCODE ?? (simulated ? SIMULATOR_C2B_SHORTCODE : undefined);
  if (shortcode === undefined) return undefined;
  return Object.freeze({
    shortcode,
    /** The register URL version: v1 gives the payer's number hashed, v2 masked (§M3.3). */
    version: env.MPESA_C2B_VERSION,
    /** `off`, `amount` (refuse amounts out of range), `invoice` (and unknown account numbers). */
    validation: env.MPESA_C2B_VALIDATION,
    /** What M-PESA does when our validation does not answer in time (§M3.4). */
    responseType: env.MPESA_C2B_RESPONSE_TYPE,
    register: env.MPESA_C2B_REGISTER ?? (env.MPESA_ENV === 'production' ? 'command' : 'start'),
    minAmount: env.C2B_MIN_AMOUNT,
    maxAmount: env.C2B_MAX_AMOUNT,
  });
}

/**
 * Payouts (features/payouts/): the shortcode B2C and B2B pay from (the STK shortcode unless it
 * differs), who must approve (PAYOUT_APPROVAL, `off` on the simulator and `always` against M-PESA
 * unless set: `always` a second owner; `off` one owner's word is
 * enough; an amount: one owner's word is enough under it), the shop's limits, and the recovery's
 * timings. They are made as the refunds' initiator (refundSettings): none, no payouts.
 */
export function payoutSettings(env: Env, problems: Problems, collectionShortcode: string) {
  problems.require(
    ['PAYOUT_GIVE_UP_S', 'PAYOUT_CHECK_AFTER_S'],
    env.PAYOUT_GIVE_UP_S >= env.PAYOUT_CHECK_AFTER_S,
    'PAYOUT_GIVE_UP_S must not be shorter than PAYOUT_CHECK_AFTER_S (a payout would be given up before M-PESA is first asked about it)',
  );
  problems.require(
    ['PAYOUT_DAILY_LIMIT', 'PAYOUT_MAX_AMOUNT'],
    env.PAYOUT_DAILY_LIMIT >= env.PAYOUT_MAX_AMOUNT,
    'PAYOUT_DAILY_LIMIT must not be less than PAYOUT_MAX_AMOUNT (no payout could use the whole of its limit)',
  );
  // On the simulator one owner's word is enough, so that `npm start` pays out with one owner;
  // against M-PESA itself (sandbox, production) a second owner approves unless set otherwise.
  const approval = env.PAYOUT_APPROVAL ?? (env.MPESA_ENV === 'simulator' ? 'off' : 'always');
  return Object.freeze({
    shortcode: env.MPESA_B2C_SHORTCODE ?? collectionShortcode,
    /** Under this amount (KES), one owner's word is enough: 0 never, Infinity always. */
    oneOwnerUnder: approval === 'always' ? 0 : approval === 'off' ? Infinity : Number(approval),
    maxAmount: env.PAYOUT_MAX_AMOUNT,
    dailyLimit: env.PAYOUT_DAILY_LIMIT,
    checkAfterS: env.PAYOUT_CHECK_AFTER_S,
    giveUpS: env.PAYOUT_GIVE_UP_S,
    /** How often the balance is read on its own (features/balance/); 0: only when asked. */
    balanceIntervalS: env.BALANCE_INTERVAL_S,
  });
}
