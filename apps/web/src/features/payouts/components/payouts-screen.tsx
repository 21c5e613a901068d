import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useWords } from '../../../i18n/words';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { meQueryOptions } from '../../auth/api/auth-api';
import { SignInNotice } from '../../auth/components/sign-in-notice';
import { isUnauthenticated } from '../../auth/unauthenticated';
import { OwnerProblem } from '../../admin/components/owner-parts';
import { useOwnerChange } from '../../admin/use-owner-change';
import {
  decideBatch,
  decidePayout,
  payoutKeys,
  payoutsQueryOptions,
  type Payout,
} from '../api/payouts-api';
import { payoutWords } from '../payouts-words';
import { BalancePanel } from './balance-panel';
import { BatchForm } from './batch-form';
import { PayoutList } from './payout-list';
import { ProposeForm } from './propose-form';
import '../payouts.css';

/** The screen for someone not signed in: the way to sign in. */
function SignedOut({ loading }: { loading: boolean }) {
  const words = useWords(payoutWords);
  return (
    <section className="card" aria-labelledby="payouts-title">
      <h2 id="payouts-title">{words.title}</h2>
      {loading ? <p role="status">{words.loading}</p> : <SignInNotice />}
    </section>
  );
}

/**
 * The Payouts screen (docs/product.md §13), for the shop's signed-in people: the balance, a payout
 * or a CSV batch proposed (an owner or a cashier), and the payouts with their outcome, each
 * approved or declined by an owner who did not propose it.
 */
export function PayoutsScreen() {
  const words = useWords(payoutWords);
  useDocumentTitle(words.title);
  const me = useQuery(meQueryOptions());
  const list = useQuery(payoutsQueryOptions());
  const single = useOwnerChange(payoutKeys.list);
  const batch = useOwnerChange(payoutKeys.list);
  const decision = useOwnerChange(payoutKeys.list);
  const [notice, setNotice] = useState<string | null>(null);
  const [correcting, setCorrecting] = useState<Payout | null>(null);
  const operator = me.data ?? null;

  if (!operator || isUnauthenticated(list.error)) {
    return <SignedOut loading={me.isPending && me.fetchStatus !== 'idle'} />;
  }
  const mayPropose = operator.role !== 'viewer';

  return (
    <section className="card owner-screen payouts-screen" aria-labelledby="payouts-title">
      <h2 id="payouts-title">{words.title}</h2>
      <p>{words.intro}</p>
      <BalancePanel mayAsk={mayPropose} />
      {notice && (
        <p className="payouts-notice" role="status">
          {notice}
        </p>
      )}
      {mayPropose && (
        <div className="payouts-forms">
          <ProposeForm
            key={correcting?.id ?? 'new'}
            correcting={correcting}
            onCancelCorrection={() => setCorrecting(null)}
            onProposed={(payout) => {
              setCorrecting(null);
              setNotice(payout.status === 'proposed' ? words.form.proposed : words.form.sent);
            }}
            run={single.run}
            busy={single.busy}
            error={single.error}
          />
          <BatchForm
            onProposed={(payouts) => setNotice(words.batch.proposed(payouts.length))}
            run={batch.run}
            busy={batch.busy}
            error={batch.error}
          />
        </div>
      )}
      {decision.error !== null && <OwnerProblem error={decision.error} />}
      {list.isError ? (
        <OwnerProblem error={list.error} />
      ) : !list.data ? (
        <p role="status">{words.loading}</p>
      ) : (
        <PayoutList
          payouts={list.data}
          actions={{
            me: operator,
            busy: decision.busy,
            decide: (payout, choice) => void decision.run(() => decidePayout(payout.id, choice)),
            decideBatch: (batchId, choice) => void decision.run(() => decideBatch(batchId, choice)),
            correct: (payout) => {
              setCorrecting(payout);
              window.scrollTo({ top: 0 });
            },
          }}
        />
      )}
    </section>
  );
}
