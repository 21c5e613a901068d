import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { REDIRECT_DELAY_MS, isClientValidPhone } from '@mpesa/shared';
import { ApiError, newIdempotencyKey } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRefusalMessage, codeOf } from '../../../i18n/refusal-words';
import { useWords } from '../../../i18n/words';
import { rememberTypedPhone } from '../../payments/typed-phones';
import { paymentWords } from '../../payments/payment-words';
import { linkKeys, payLink, payerLinkQueryOptions, type PayerLink } from '../api/links-api';
import { linkWords } from '../links-words';
import '../links.css';

/**
 * The payer's page of a payment link (`/pay/<code>`): the shop, the amount and what it is for are
 * there already; the payer types the phone number (and the amount, when the link lets them
 * choose) and pays. Then today's flow: the prompt, and the payment's own page.
 */
export function PayLinkScreen() {
  const { code = '' } = useParams();
  const words = useWords(linkWords);
  useDocumentTitle(words.pay.title);
  const link = useQuery(payerLinkQueryOptions(code));

  return (
    <section className="card pay-link" aria-labelledby="pay-link-title">
      <h2 id="pay-link-title">{words.pay.title}</h2>
      {link.isPending && <p role="status">{words.pay.loading}</p>}
      {link.isError && (
        <p role="alert">
          {codeOf(link.error) === 'LINK_NOT_FOUND' ? words.pay.notFound : words.pay.failed}
        </p>
      )}
      {link.data && <PayLinkBody link={link.data} />}
    </section>
  );
}

function PayLinkBody({ link }: { link: PayerLink }) {
  const words = useWords(linkWords);
  const amountShown = link.amount !== null ? words.kes(link.amount) : null;
  return (
    <>
      <dl className="pay-link-details">
        {link.shopName && (
          <div>
            <dt>{words.pay.to}</dt>
            <dd>{link.shopName}</dd>
          </div>
        )}
        {amountShown && (
          <div>
            <dt>{words.pay.amount}</dt>
            <dd className="pay-link-amount">{amountShown}</dd>
          </div>
        )}
        <div>
          <dt>{words.pay.purpose}</dt>
          <dd>{link.purpose}</dd>
        </div>
      </dl>
      {link.status === 'active' ? (
        <PayForm link={link} />
      ) : (
        <p className="pay-link-closed" role="status">
          {words.pay.closed[link.status]}
        </p>
      )}
    </>
  );
}

/** The payer's form's state and its submission, under one Idempotency-Key per details sent. */
function usePayLink(link: PayerLink) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [phone, setPhone] = useState('');
  const [amount, setAmount] = useState('');
  const [invalid, setInvalid] = useState<'phoneNumber' | 'amount' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const unanswered = useRef<{ details: string; key: string } | null>(null);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || sent) return;
    setError(null);
    if (!isClientValidPhone(phone)) return setInvalid('phoneNumber');
    const chosen = Number.parseFloat(amount);
    if (link.amount === null && !(chosen >= (link.minAmount ?? 1))) return setInvalid('amount');
    setInvalid(null);
    const body = {
      phoneNumber: phone.trim(),
      ...(link.amount === null ? { amount: chosen } : {}),
    };
    const details = JSON.stringify(body);
    if (unanswered.current?.details !== details) {
      unanswered.current = { details, key: newIdempotencyKey() };
    }
    setBusy(true);
    try {
      const answer = await payLink(link.code, body, unanswered.current.key);
      unanswered.current = null;
      rememberTypedPhone(answer.transactionId, body.phoneNumber);
      setSent(true);
      redirect.current = setTimeout(() => {
        void navigate(paths.transaction(answer.transactionId));
      }, REDIRECT_DELAY_MS);
    } catch (failure) {
      if (failure instanceof ApiError && codeOf(failure)) unanswered.current = null;
      setError(failure);
      // A link paid, expired or switched off meanwhile: the page says so instead of the form.
      if (/^LINK_(PAID|EXPIRED|OFF)$/.test(codeOf(failure) ?? '')) {
        void client.invalidateQueries({ queryKey: linkKeys.payer(link.code) });
      }
    } finally {
      setBusy(false);
    }
  }

  return { phone, setPhone, amount, setAmount, invalid, error, busy, sent, submit };
}

function PayForm({ link }: { link: PayerLink }) {
  const words = useWords(linkWords);
  const payment = useWords(paymentWords);
  const refusal = useRefusalMessage();
  const { phone, setPhone, amount, setAmount, invalid, error, busy, sent, submit } =
    usePayLink(link);
  const errorBox = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) errorBox.current?.focus();
  }, [error]);

  return (
    <form className="pay-link-form" onSubmit={submit} noValidate>
      <div aria-live="assertive" className="messages">
        {error !== null && (
          <p className="error-message" role="alert" tabIndex={-1} ref={errorBox}>
            {refusal(error) || words.pay.failed}
          </p>
        )}
      </div>
      <div aria-live="polite" className="messages">
        {sent && (
          <p className="success-message" role="status">
            {words.pay.sent}
          </p>
        )}
      </div>
      <fieldset className="form-fields" disabled={sent}>
        {link.amount === null && (
          <div className="form-field">
            <label htmlFor="pay-link-amount">{words.pay.chooseAmount(link.minAmount ?? 1)}</label>
            <input
              id="pay-link-amount"
              type="number"
              inputMode="numeric"
              min={link.minAmount ?? 1}
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              aria-invalid={invalid === 'amount'}
            />
          </div>
        )}
        <div className="form-field">
          <label htmlFor="pay-link-phone">{words.pay.phone}</label>
          <input
            id="pay-link-phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="0712345678"
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            aria-invalid={invalid === 'phoneNumber'}
            aria-describedby="pay-link-phone-hint"
          />
          <p id="pay-link-phone-hint" className="field-hint">
            {invalid === 'phoneNumber' ? payment.invalidPhone : words.pay.hint}
          </p>
        </div>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy || sent}>
          {busy ? words.pay.processing : words.pay.submit}
        </button>
      </div>
    </form>
  );
}
