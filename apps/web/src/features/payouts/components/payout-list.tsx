import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import { payoutFailure } from '@mpesa/shared/payout-failures';
import type { Payout } from '../api/payouts-api';
import { payoutWords } from '../payouts-words';

export interface PayoutActions {
  /** The signed-in operator: an owner may approve (not their own) and decline. */
  me: { name: string; role: string };
  busy: boolean;
  decide: (payout: Payout, decision: 'approve' | 'decline') => void;
  decideBatch: (batchId: string, decision: 'approve' | 'decline') => void;
  correct: (payout: Payout) => void;
}

/** A paid payout's receipt, receiver and charge. */
function PayoutOutcome({ payout }: { payout: Payout }) {
  const words = useWords(payoutWords);
  const said = words.list;
  return (
    <dl className="payout-outcome">
      {payout.receipt && (
        <>
          <dt>{said.receipt}</dt>
          <dd>{payout.receipt}</dd>
        </>
      )}
      {payout.receiverName && (
        <>
          <dt>{said.receiver}</dt>
          <dd>{payout.receiverName}</dd>
        </>
      )}
      {payout.charge !== null && (
        <>
          <dt>{said.charge}</dt>
          <dd>{words.kes(payout.charge)}</dd>
        </>
      )}
    </dl>
  );
}

function PayoutCard({ payout, actions }: { payout: Payout; actions: PayoutActions }) {
  const words = useWords(payoutWords);
  const said = words.list;
  const language = useLanguage();
  const amount = words.kes(payout.amount);
  const owner = actions.me.role === 'owner';
  const own = payout.proposedBy === actions.me.name;
  const failure =
    payout.status === 'failed'
      ? payoutFailure(words.failures, payout.resultCode === 'R000002' ? 'lost' : payout.resultCode)
      : payout.status === 'unknown'
        ? words.unknownWords
        : null;
  return (
    <article className="card payout-card" aria-label={said.payout(payout.to, amount)}>
      <p className="payout-head">
        <strong className="amount">{amount}</strong> {said.to} <span>{payout.to}</span>
        {payout.account && <span> ({payout.account})</span>}
      </p>
      <p>
        <span className={`status-badge status-${payout.status}`}>
          {words.statuses[payout.status]}
        </span>{' '}
        {words.kinds[payout.kind]}
      </p>
      <p>{payout.reason}</p>
      <p className="payout-who">
        {said.proposedBy(payout.proposedBy)}, {formatDate(payout.proposedAt, language)}
        {payout.decidedBy && <> · {said.decidedBy(payout.status, payout.decidedBy)}</>}
      </p>
      {payout.status === 'succeeded' && <PayoutOutcome payout={payout} />}
      {failure && <p className="payout-failure">{failure}</p>}
      {payout.status === 'proposed' && owner && (
        <div className="payout-actions">
          {own ? (
            <p>{said.ownProposal}</p>
          ) : (
            <button
              type="button"
              className="button"
              disabled={actions.busy}
              onClick={() => actions.decide(payout, 'approve')}
            >
              {said.approve}
            </button>
          )}
          <button
            type="button"
            className="button button-secondary"
            disabled={actions.busy}
            onClick={() => actions.decide(payout, 'decline')}
          >
            {said.decline}
          </button>
        </div>
      )}
      {payout.status === 'failed' && actions.me.role !== 'viewer' && (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => actions.correct(payout)}
        >
          {said.correct}
        </button>
      )}
    </article>
  );
}

/** Batches still waiting, with their own actions for an owner who did not propose them. */
function BatchBars({ payouts, actions }: { payouts: Payout[]; actions: PayoutActions }) {
  const said = useWords(payoutWords).batch;
  const waiting = new Map<string, Payout[]>();
  for (const payout of payouts) {
    if (payout.batchId && payout.status === 'proposed') {
      waiting.set(payout.batchId, [...(waiting.get(payout.batchId) ?? []), payout]);
    }
  }
  if (actions.me.role !== 'owner') return null;
  return [...waiting].map(([batchId, rows]) => (
    <div
      key={batchId}
      className="card payout-batch"
      role="group"
      aria-label={said.group(rows.length, rows[0]!.proposedBy)}
    >
      <p>{said.group(rows.length, rows[0]!.proposedBy)}</p>
      {rows.every((row) => row.proposedBy !== actions.me.name) && (
        <button
          type="button"
          className="button"
          disabled={actions.busy}
          onClick={() => actions.decideBatch(batchId, 'approve')}
        >
          {said.approveAll}
        </button>
      )}
      <button
        type="button"
        className="button button-secondary"
        disabled={actions.busy}
        onClick={() => actions.decideBatch(batchId, 'decline')}
      >
        {said.declineAll}
      </button>
    </div>
  ));
}

export function PayoutList({ payouts, actions }: { payouts: Payout[]; actions: PayoutActions }) {
  const words = useWords(payoutWords);
  return (
    <section aria-labelledby="payout-list-title">
      <h3 id="payout-list-title">{words.list.title}</h3>
      <BatchBars payouts={payouts} actions={actions} />
      {payouts.length === 0 ? (
        <p>{words.empty}</p>
      ) : (
        payouts.map((payout) => <PayoutCard key={payout.id} payout={payout} actions={actions} />)
      )}
    </section>
  );
}
