/**
 * The Result of a transaction status query about a refund's reversal (docs/daraja-protocol.md §M5),
 * asked by the recovery when the reversal's own Result did not come (features/refunds/refund-recovery.ts):
 * kept as received and applied to its refund (features/refunds/refund-results.ts).
 */
import { takeRefundResult } from './refund-results.ts';
import type { RefundDeps } from './refunds.service.ts';
import type { CallbackHandler } from '../../callbacks/callback.routes.ts';
import { resultCallback } from '../../callbacks/result-callback.ts';

export function refundStatusCallback(deps: RefundDeps): CallbackHandler {
  return resultCallback(
    {
      summary: 'A transaction status Result about a refund',
      description:
        'Daraja posts here the answer to a transaction status query about a refund’s reversal ' +
        '(docs/daraja-protocol.md §M5): stored as it arrived, whatever it holds; a completed ' +
        'reversal marks the refund reversed, and M-PESA having no record of it fails the refund ' +
        'once REFUND_GIVE_UP_S has passed.',
    },
    ({ raw, ip, log }) => takeRefundResult({ ...deps, log }, 'refund-status', { raw, ip }),
  );
}
