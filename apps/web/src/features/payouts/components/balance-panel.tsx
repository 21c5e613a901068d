import { useQuery } from '@tanstack/react-query';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import { OwnerProblem } from '../../admin/components/owner-parts';
import { useOwnerChange } from '../../admin/use-owner-change';
import type { BalanceResponse } from '@mpesa/shared/contract-balance';
import { balanceQueryOptions, payoutKeys, readBalanceNow } from '../api/payouts-api';
import { payoutWords } from '../payouts-words';

type Reading = NonNullable<BalanceResponse['data']['latest']>;

/** Each account of a reading, and all of them added up. */
function AccountsTable({ reading }: { reading: Reading }) {
  const words = useWords(payoutWords);
  const said = words.balance;
  const shown = reading;
  if (!shown.accounts) return null;
  return (
    <table className="payouts-accounts">
      <thead>
        <tr>
          <th scope="col">{said.account}</th>
          <th scope="col">{said.available}</th>
        </tr>
      </thead>
      <tbody>
        {shown.accounts.map((account) => (
          <tr key={account.name}>
            <th scope="row">{account.name}</th>
            <td className="amount">{words.kes(account.available)}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">{said.total}</th>
          <td className="amount">{words.kes(shown.total ?? 0)}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** The day's money in, out and charges, and the change in balance. */
function DayFigures({ day }: { day: BalanceResponse['data']['day'] }) {
  const words = useWords(payoutWords);
  const said = words.balance;
  return (
    <>
      <h4>{said.today}</h4>
      <dl className="payouts-day">
        <dt>{said.moneyIn}</dt>
        <dd>{words.kes(day.moneyIn)}</dd>
        <dt>{said.moneyOut}</dt>
        <dd>{words.kes(day.moneyOut)}</dd>
        <dt>{said.fees}</dt>
        <dd>{words.kes(day.fees)}</dd>
        {day.change !== null && (
          <>
            <dt>{said.change}</dt>
            <dd>{words.kes(day.change)}</dd>
          </>
        )}
      </dl>
    </>
  );
}

/**
 * The balance M-PESA holds for the shop: each account of the latest reading, when it was read, and
 * the day's money in, out and charges beside the change in balance. An owner or a cashier may ask
 * for a reading now.
 */
export function BalancePanel({ mayAsk }: { mayAsk: boolean }) {
  const words = useWords(payoutWords);
  const said = words.balance;
  const language = useLanguage();
  const query = useQuery(balanceQueryOptions());
  const change = useOwnerChange(payoutKeys.balance);
  const latest = query.data?.latest ?? null;
  // A reading asked since the one shown: awaited, or failed.
  const asked = query.data?.newer ?? latest;
  const day = query.data?.day;
  const shown = latest?.status === 'read' ? latest : null;

  return (
    <section className="card payouts-balance" aria-labelledby="balance-title">
      <h3 id="balance-title">{said.title}</h3>
      {query.isError && <OwnerProblem error={query.error} />}
      {change.error !== null && <OwnerProblem error={change.error} />}
      {asked?.status === 'asked' && <p role="status">{said.asked}</p>}
      {asked?.status === 'failed' && <p>{said.failed(asked.resultDescription ?? '')}</p>}
      {shown?.accounts ? (
        <>
          <p>{said.readAt(formatDate(shown.readAt ?? shown.askedAt, language))}</p>
          <AccountsTable reading={shown} />
        </>
      ) : (
        !query.isPending && asked?.status !== 'asked' && <p>{said.none}</p>
      )}
      {day && <DayFigures day={day} />}
      {day && (
        <p>
          {day.agrees === null
            ? said.needsTwo
            : day.agrees
              ? said.agrees
              : said.disagrees(words.kes(Math.abs((day.change ?? 0) - (day.expectedChange ?? 0))))}
        </p>
      )}
      {mayAsk && (
        <button
          type="button"
          className="button button-secondary"
          disabled={change.busy}
          onClick={() => void change.run(readBalanceNow)}
        >
          {said.readNow}
        </button>
      )}
    </section>
  );
}
