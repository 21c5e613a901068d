/**
 * A refund's reversal Result (docs/daraja-protocol.md §M7): kept as received and applied to its
 * refund (features/refunds/refund-results.ts).
 */
import { takeRefundResult } from './refund-results.ts';
import type { RefundDeps } from './refunds.service.ts';
import type { CallbackHandler } from '../../callbacks/callback.routes.ts';
import { resultCallback } from '../../callbacks/result-callback.ts';

export function reversalCallback(deps: RefundDeps): CallbackHandler {
  return resultCallback(
    {
      summary: 'A reversal’s Result: whether a refund’s money went back',
      description:
        'Daraja posts the Result of a reversal here (docs/daraja-protocol.md §M7): the body is stored ' +
        'as it arrived, whatever it holds, and applied to the refund whose request it answers. A ' +
        'Result for no refund, or one already applied, changes nothing.',
    },
    ({ raw, ip, log }) => takeRefundResult({ ...deps, log }, 'reversal', { raw, ip }),
  );
}
