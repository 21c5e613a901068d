import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useWords } from '../../../i18n/words';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { meQueryOptions } from '../../auth/api/auth-api';
import { SignInNotice } from '../../auth/components/sign-in-notice';
import { isUnauthenticated } from '../../auth/unauthenticated';
import { OwnerProblem } from '../../admin/components/owner-parts';
import { useOwnerChange } from '../../admin/use-owner-change';
import { useConfig } from '../../system/api/system-api';
import {
  createLink,
  linkKeys,
  linkQueryOptions,
  linksQueryOptions,
  switchOffLink,
  type Link,
  type LinkFields,
} from '../api/links-api';
import { linkWords } from '../links-words';
import { LinkQr } from './link-qr';
import '../links.css';

/** The link's full address, on this site. */
const addressOf = (link: Link) => `${window.location.origin}${paths.pay(link.code)}`;

/**
 * The Links screen (issue 38), for the shop's signed-in people: a link made (an owner or a
 * cashier), and the links with what each shows now, what was paid through it, its message to
 * share, and a way to switch it off.
 */
export function LinksScreen() {
  const words = useWords(linkWords);
  useDocumentTitle(words.title);
  const me = useQuery(meQueryOptions());
  const list = useQuery(linksQueryOptions());
  const change = useOwnerChange(linkKeys.list);
  const [notice, setNotice] = useState<string | null>(null);
  const operator = me.data ?? null;

  if (!operator || isUnauthenticated(list.error)) {
    return (
      <section className="card" aria-labelledby="links-title">
        <h2 id="links-title">{words.title}</h2>
        {me.isPending && me.fetchStatus !== 'idle' ? (
          <p role="status">{words.loading}</p>
        ) : (
          <SignInNotice />
        )}
      </section>
    );
  }
  const mayChange = operator.role !== 'viewer';

  return (
    <section className="card owner-screen links-screen" aria-labelledby="links-title">
      <h2 id="links-title">{words.title}</h2>
      <p>{words.intro}</p>
      {mayChange && (
        <LinkForm
          busy={change.busy}
          make={async (fields) => {
            const made = await change.run(() => createLink(fields));
            if (made) setNotice(words.form.made);
          }}
        />
      )}
      {notice && (
        <p className="links-notice" role="status">
          {notice}
        </p>
      )}
      {change.error !== null && <OwnerProblem error={change.error} />}
      {list.isError ? (
        <OwnerProblem error={list.error} />
      ) : !list.data ? (
        <p role="status">{words.loading}</p>
      ) : list.data.length === 0 ? (
        <p>{words.empty}</p>
      ) : (
        <ul className="link-list">
          {list.data.map((link) => (
            <li key={link.id}>
              <LinkCard
                link={link}
                mayChange={mayChange}
                switchOff={
                  mayChange && link.status === 'active'
                    ? () => void change.run(() => switchOffLink(link.id))
                    : undefined
                }
                busy={change.busy}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One labelled input of the link's form. */
function Field(props: {
  id: string;
  label: string;
  value: string;
  set: (value: string) => void;
  number?: boolean;
  required?: boolean;
}) {
  return (
    <div className="form-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        {...(props.number ? { type: 'number', inputMode: 'numeric' as const, min: 1 } : {})}
        required={props.required}
        value={props.value}
        onChange={(event) => props.set(event.target.value)}
      />
    </div>
  );
}

function LinkForm({ make, busy }: { make: (fields: LinkFields) => Promise<void>; busy: boolean }) {
  const words = useWords(linkWords);
  const [chosen, setChosen] = useState(false);
  const [amount, setAmount] = useState('');
  const [purpose, setPurpose] = useState('');
  const [reference, setReference] = useState('');
  const [oneOnly, setOneOnly] = useState(true);
  const [days, setDays] = useState('7');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = Number(amount);
    await make({
      ...(chosen ? { minAmount: value || 1 } : { amount: value }),
      purpose,
      reference,
      oneOnly,
      ...(days.trim() === '' ? {} : { expiresInDays: Number(days) }),
    });
  }

  return (
    <form className="link-form" aria-labelledby="link-form-title" onSubmit={submit}>
      <h3 id="link-form-title">{words.form.title}</h3>
      <fieldset className="link-form-kind">
        <label>
          <input type="radio" checked={!chosen} onChange={() => setChosen(false)} />{' '}
          {words.form.fixed}
        </label>
        <label>
          <input type="radio" checked={chosen} onChange={() => setChosen(true)} />{' '}
          {words.form.chosen}
        </label>
      </fieldset>
      <Field
        id="link-amount"
        label={chosen ? words.form.minAmount : words.form.amount}
        value={amount}
        set={setAmount}
        number
        required={!chosen}
      />
      <Field
        id="link-purpose"
        label={words.form.purpose}
        value={purpose}
        set={setPurpose}
        required
      />
      <Field
        id="link-reference"
        label={words.form.reference}
        value={reference}
        set={setReference}
        required
      />
      <Field id="link-days" label={words.form.expiresInDays} value={days} set={setDays} number />
      <label className="link-form-check">
        <input
          type="checkbox"
          checked={oneOnly}
          onChange={(event) => setOneOnly(event.target.checked)}
        />{' '}
        {words.form.oneOnly}
      </label>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {words.form.submit}
        </button>
      </div>
    </form>
  );
}

function LinkCard({
  link,
  mayChange,
  switchOff,
  busy,
}: {
  link: Link;
  mayChange: boolean;
  switchOff: (() => void) | undefined;
  busy: boolean;
}) {
  const words = useWords(linkWords);
  const config = useConfig();
  const [copied, setCopied] = useState(false);
  const [showQr, setShowQr] = useState(false);
  const amount =
    link.amount !== null ? words.kes(link.amount) : words.anyAmount(link.minAmount ?? 1);
  const message = words.share(amount, config?.businessName ?? '', addressOf(link));
  const name = words.card(amount, link.purpose);
  return (
    <article className={`link-card link-${link.status}`} aria-label={name}>
      <h4>{name}</h4>
      <p>
        <span className="link-status">{words.statuses[link.status]}</span> ·{' '}
        {words.paidCount(link.paidCount)} · {words.collected(link.collected)}
      </p>
      <p className="link-reference">
        {link.reference}
        {link.expiresAt && ` · ${words.expires} ${formatDate(link.expiresAt)}`}
      </p>
      <p className="link-address">
        <a href={paths.pay(link.code)}>{addressOf(link)}</a>
      </p>
      <div className="link-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            void navigator.clipboard?.writeText(message).then(() => setCopied(true));
          }}
        >
          {copied ? words.copied : words.copy}
        </button>
        <button
          type="button"
          className="button"
          aria-expanded={showQr}
          onClick={() => setShowQr((shown) => !shown)}
        >
          {showQr ? words.qr.hide : words.qr.show}
        </button>
        {switchOff && (
          <button type="button" className="button" disabled={busy} onClick={switchOff}>
            {words.switchOff}
          </button>
        )}
      </div>
      {showQr && (
        <LinkQr link={link} shopName={config?.businessName ?? ''} mayAskMpesa={mayChange} />
      )}
      {link.paidCount > 0 || link.status === 'active' ? (
        <details>
          <summary>{words.payments}</summary>
          <LinkPayments id={link.id} />
        </details>
      ) : null}
    </article>
  );
}

function LinkPayments({ id }: { id: string }) {
  const words = useWords(linkWords);
  const one = useQuery(linkQueryOptions(id));
  if (!one.data) return <p role="status">{words.loading}</p>;
  return (
    <ul className="link-payments">
      {one.data.payments.map((payment) => (
        <li key={payment.transactionId}>
          <a href={paths.transaction(payment.transactionId)}>
            {words.kes(payment.amount)} · {payment.phoneNumber} · {payment.status}
            {payment.mpesaReceiptNumber && ` · ${payment.mpesaReceiptNumber}`}
          </a>
        </li>
      ))}
    </ul>
  );
}
