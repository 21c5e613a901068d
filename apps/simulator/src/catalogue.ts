/**
 * Daraja's facts as the simulator plays them (docs/daraja-protocol.md): result codes and their
 * current wording (§4.2), synchronous errors (§2, §3.5) and the numbers that force an outcome.
 */
import { z } from 'zod';

/** ResultCode → ResultDesc, in the wording of 2026 production callbacks where one was observed. */
export const RESULT_CODES: Record<string, string> = {
  '0': 'The service request is processed successfully.',
  '1': 'The balance is insufficient for the transaction.',
  '2': 'Declined due to limit rule.',
  '3': 'Declined due to limit rule: greater than the maximum transaction amount.',
  '4': 'Declined due to limit rule: would exceed daily transfer limit.',
  '8': 'Declined due to limit rule: would exceed the maximum balance.',
  '17': 'Rule limited.',
  '1001':
    'Unable to lock subscriber, a transaction is already in process for the current subscriber',
  '1019': 'Transaction has expired.',
  '1025': 'An error occurred while sending a push request.',
  '1032': 'Request Cancelled by user.',
  '1037': 'DS timeout user cannot be reached.',
  '2001': 'The initiator information is invalid.',
  '2028': 'The request is not permitted according to product assignment.',
  '8006': 'The security credential is locked.',
  SFC_IC0003: 'The operator does not exist.',
};

/** The numbers table of the README: the payer's number decides the outcome (national form). */
export const FORCED_NUMBERS: Record<string, ForcedOutcome> = {
  '254700000000': { kind: 'result', resultCode: '0' },
  '254700000001': { kind: 'result', resultCode: '1' },
  '254700001032': { kind: 'result', resultCode: '1032' },
  '254700001037': { kind: 'result', resultCode: '1037' },
  '254700001019': { kind: 'result', resultCode: '1019' },
  '254700002001': { kind: 'result', resultCode: '2001' },
  '254700000017': { kind: 'result', resultCode: '17' },
  '254700000503': { kind: 'refuse', error: 'busy' },
  '254700009999': { kind: 'paid-no-callback' },
};

/** A synchronous refusal: HTTP status, errorCode, errorMessage. */
export type Failure = readonly [number, string, string];

/**
 * Synchronous Daraja errors: HTTP status, errorCode, errorMessage (docs/daraja-protocol.md §2,
 * §3.5).
 */
export const ERRORS = {
  invalidGrant: [400, '400.008.02', 'Invalid grant type passed'],
  invalidAuthentication: [400, '400.008.01', 'Invalid Authentication passed'],
  invalidToken: [404, '404.001.03', 'Invalid Access Token'],
  invalidAuthHeader: [404, '404.001.04', 'Invalid Authentication Header'],
  notFound: [404, '404.001.01', 'Resource not found'],
  invalidPayload: [400, '400.002.05', 'Invalid Request Payload'],
  merchantMissing: [500, '500.001.1001', 'Merchant does not exist'],
  wrongCredentials: [500, '500.001.1001', 'Wrong credentials'],
  subscriberLocked: [
    500,
    '500.001.1001',
    'Unable to lock subscriber, a transaction is already in process for the current subscriber',
  ],
  stillProcessing: [500, '500.001.1001', 'The transaction is being processed'],
  systemBusy: [500, '500.003.02', 'System is busy. Please try again in few minutes.'],
  spikeArrest: [500, '500.003.02', 'Error Occurred: Spike Arrest Violation'],
  quota: [500, '500.003.03', 'Quota Violation'],
  internal: [500, '500.003.1001', 'Internal Server Error'],
} as const satisfies Record<string, Failure>;

export type ErrorName = keyof typeof ERRORS;

/**
 * Refusals a push can be given at once, instead of a prompt (docs/daraja-protocol.md §3.5,
 * §10.2).
 */
export const REFUSALS = {
  busy: ERRORS.systemBusy,
  'spike-arrest': ERRORS.spikeArrest,
  quota: ERRORS.quota,
  'internal-error': ERRORS.internal,
} as const;

export const RefusalNameSchema = z.enum(Object.keys(REFUSALS) as [RefusalName, ...RefusalName[]]);
export type RefusalName = keyof typeof REFUSALS;

/** An outcome a push can be made to have: a result, a refusal at once, or paid with no callback. */
export const ForcedOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('result'), resultCode: z.string() }),
  z.object({ kind: z.literal('refuse'), error: RefusalNameSchema }),
  z.object({ kind: z.literal('paid-no-callback') }),
]);
export type ForcedOutcome = z.infer<typeof ForcedOutcomeSchema>;

export function invalidField(field: string): Failure {
  // Real responses use a hyphen, though the documentation prints an en dash.
  return [400, '400.002.02', `Bad Request - Invalid ${field}`];
}

/** Real STK query answers spell "successsfully" with three s (docs/daraja-protocol.md §5). */
export const QUERY_ACCEPTED = 'The service request has been accepted successsfully';
export const PUSH_ACCEPTED = 'Success. Request accepted for processing';
