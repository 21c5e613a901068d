import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_REFERENCE,
  DESCRIPTION_MAX_LENGTH,
  MIN_AMOUNT,
  REFERENCE_MAX_LENGTH,
  REDIRECT_DELAY_MS,
  isClientValidPhone,
  INVALID_PHONE_MESSAGE,
  AMOUNT_TOO_SMALL_MESSAGE,
} from '@mpesa/shared';
import { ApiError, newIdempotencyKey } from '../../../lib/api-client';
import { paths } from '../../../app/paths';
import { publicConfigQueryOptions } from '../../system/api/system-api';
import {
  PAYMENT_TIMEOUT_MS,
  useInitiatePayment,
  type PaymentRequest,
} from '../api/initiate-payment';
import { repeatedPayment } from '../repeat-payment';
import { useDocumentTitle } from '../../../lib/use-document-title';

export const SUCCESS_MESSAGE = 'Payment initiated! Check your phone to complete the transaction.';
export const FAILURE_FALLBACK = 'Failed to initiate payment. Please try again.';
export const REDIRECT_NOTICE = `Opening this payment’s details in ${REDIRECT_DELAY_MS / 1000} seconds.`;

const EMPTY: PaymentRequest = { phoneNumber: '', amount: '', reference: '', description: '' };

type CheckedField = 'phoneNumber' | 'amount';
interface Invalid {
  field: CheckedField;
  message: string;
}

/** The specification's checks, in its order (spec §5), each naming the field it is about. */
function validate(form: PaymentRequest): Invalid | null {
  if (!isClientValidPhone(form.phoneNumber)) {
    return { field: 'phoneNumber', message: INVALID_PHONE_MESSAGE };
  }
  const amount = Number.parseFloat(form.amount);
  if (Number.isNaN(amount) || amount < MIN_AMOUNT) {
    return { field: 'amount', message: AMOUNT_TOO_SMALL_MESSAGE };
  }
  return null;
}

/** The thrown message, else the server body's message, else the fallback (spec §8). */
function failureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.message) return error.message;
    const body = error.body as { message?: unknown } | undefined;
    if (typeof body?.message === 'string' && body.message) return body.message;
    return FAILURE_FALLBACK;
  }
  return error instanceof Error && error.message ? error.message : FAILURE_FALLBACK;
}

/** The API's code for a refusal; undefined when the API did not answer (or a proxy did). */
function codeOf(error: ApiError): unknown {
  return (error.body as { code?: unknown } | undefined)?.code;
}

/**
 * The field a refusal by the server is about, so that its message is shown and heard there: the
 * server judges more than the specification's two checks (a whole number, at most 250,000 KES, a
 * number M-PESA can prompt).
 */
function fieldOf(error: unknown): CheckedField | null {
  if (!(error instanceof ApiError)) return null;
  const code = codeOf(error);
  if (code === 'MPESA_INVALID_PHONE') return 'phoneNumber';
  if (code === 'MPESA_INVALID_AMOUNT') return 'amount';
  if (code !== 'VALIDATION_ERROR') return null;
  if (error.message === INVALID_PHONE_MESSAGE) return 'phoneNumber';
  return error.message.startsWith('Amount') ? 'amount' : null;
}

const SAME_DETAILS_AGAIN = 'Sending the same details again cannot start a second payment.';

/** When no answer came: what that means for the payment, under the specification's message. */
function noAnswerDetail(error: unknown): string {
  if (!(error instanceof ApiError) || error.status !== 0) return '';
  if (error.timedOut) {
    return (
      `The server did not answer within ${PAYMENT_TIMEOUT_MS / 1000} seconds, so the payment may ` +
      `have started: if your phone shows an M-PESA prompt, answer it. ${SAME_DETAILS_AGAIN}`
    );
  }
  return navigator.onLine
    ? `The server could not be reached. Check your connection, then try again. ${SAME_DETAILS_AGAIN}`
    : 'You are offline, so no payment request was sent. Connect to the internet, then try again.';
}

/** A checked field's message, under the field and named as its description. */
function FieldError({ field, invalid }: { field: CheckedField; invalid: Invalid | null }) {
  if (invalid?.field !== field) return null;
  return (
    <p id={`${field}-error`} className="field-error" role="alert">
      {invalid.message}
    </p>
  );
}

/** The ids that describe a field: its message first, when it has one, then its hint. */
function describedBy(field: CheckedField, invalid: Invalid | null, hint?: string) {
  const ids = [invalid?.field === field ? `${field}-error` : '', hint ?? ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function PaymentForm() {
  useDocumentTitle('Make Payment');
  const navigate = useNavigate();
  const { state } = useLocation();
  const { data: config } = useQuery(publicConfigQueryOptions());
  const payment = useInitiatePayment();
  // "Try again" on a payment that did not go through opens the form with its details.
  const [form, setForm] = useState<PaymentRequest>(() => repeatedPayment(state) ?? EMPTY);
  const [invalid, setInvalid] = useState<Invalid | null>(null);
  const [error, setError] = useState<{ message: string; detail: string } | null>(null);
  const [sent, setSent] = useState(false);
  /** True from a submission until it fails; after a success, until the page moves on. */
  const busy = useRef(false);
  /**
   * The details sent and their Idempotency-Key, kept until the API answers: details sent again
   * after no answer (or a proxy's) go under the same key, so the API starts them once.
   */
  const unanswered = useRef<{ details: string; key: string } | null>(null);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  const phoneInput = useRef<HTMLInputElement>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);

  useEffect(() => () => clearTimeout(redirect.current), []);
  // Focus goes to what needs the payer: the field to correct, or the reason the payment failed.
  useEffect(() => {
    if (invalid) (invalid.field === 'amount' ? amountInput : phoneInput).current?.focus();
  }, [invalid]);
  useEffect(() => {
    if (error) errorBox.current?.focus();
  }, [error]);

  const update = (field: keyof PaymentRequest) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    setError(null);
    const problem = validate(form);
    setInvalid(problem);
    if (problem) return;
    const request: PaymentRequest = {
      phoneNumber: form.phoneNumber.trim(),
      amount: form.amount,
      reference: form.reference || DEFAULT_REFERENCE,
      description: form.description || DEFAULT_DESCRIPTION,
    };
    const details = JSON.stringify(request);
    if (unanswered.current?.details !== details) {
      unanswered.current = { details, key: newIdempotencyKey() };
    }
    busy.current = true;
    try {
      const response = await payment.send({
        request,
        idempotencyKey: unanswered.current.key,
      });
      unanswered.current = null;
      // The form stays disabled until the page moves on: a second tap now would be a second payment.
      setSent(true);
      redirect.current = setTimeout(() => {
        void navigate(paths.transaction(response.transactionId));
      }, REDIRECT_DELAY_MS);
    } catch (failure) {
      // A request that got no answer from the API may have reached it: the same details go again
      // under the same key. The API's own answer (its body has a code) settles the key.
      if (!(failure instanceof ApiError) || codeOf(failure)) unanswered.current = null;
      const field = fieldOf(failure);
      if (field) setInvalid({ field, message: failureMessage(failure) });
      else setError({ message: failureMessage(failure), detail: noAnswerDetail(failure) });
      busy.current = false;
    }
  }

  const processing = payment.isPending;

  return (
    <section className="card payment-form" aria-labelledby="payment-title">
      <h2 id="payment-title">M-PESA Payment</h2>
      <p className="payment-intro">
        {config?.businessName && (
          <>
            You are paying <strong>{config.businessName}</strong>.{' '}
          </>
        )}
        M-PESA will send a prompt to the phone number below: enter your M-PESA PIN there within
        about a minute, before the prompt expires.
      </p>

      <div aria-live="assertive" className="messages">
        {error && (
          <div className="error-message" role="alert" tabIndex={-1} ref={errorBox}>
            <p>{error.message}</p>
            {error.detail && <p>{error.detail}</p>}
          </div>
        )}
      </div>
      <div aria-live="polite" className="messages">
        {sent && (
          <div className="success-message" role="status">
            <p>{SUCCESS_MESSAGE}</p>
            <p>{REDIRECT_NOTICE}</p>
          </div>
        )}
      </div>

      {/* The browser's own bubbles are off so that the specification's messages are the ones shown. */}
      <form onSubmit={handleSubmit} noValidate>
        <fieldset className="form-fields" disabled={sent}>
          <div className="form-group">
            <label htmlFor="phoneNumber">Phone Number</label>
            <input
              ref={phoneInput}
              type="text"
              id="phoneNumber"
              name="phoneNumber"
              inputMode="tel"
              autoComplete="tel"
              value={form.phoneNumber}
              onChange={(event) => update('phoneNumber')(event.target.value)}
              placeholder="e.g., 0712345678 or +254712345678"
              required
              aria-required="true"
              aria-invalid={invalid?.field === 'phoneNumber'}
              aria-describedby={describedBy('phoneNumber', invalid, 'phoneNumber-hint')}
            />
            <small id="phoneNumber-hint">Format: 07XXXXXXXX or +2547XXXXXXXX</small>
            <FieldError field="phoneNumber" invalid={invalid} />
          </div>

          <div className="form-group">
            <label htmlFor="amount">Amount (KES)</label>
            <input
              ref={amountInput}
              type="number"
              id="amount"
              name="amount"
              inputMode="numeric"
              min={MIN_AMOUNT}
              value={form.amount}
              onChange={(event) => update('amount')(event.target.value)}
              placeholder="Amount in KES"
              required
              aria-required="true"
              aria-invalid={invalid?.field === 'amount'}
              aria-describedby={describedBy('amount', invalid)}
            />
            <FieldError field="amount" invalid={invalid} />
          </div>

          <div className="form-group">
            <label htmlFor="reference">Reference</label>
            <input
              type="text"
              id="reference"
              name="reference"
              value={form.reference}
              onChange={(event) => update('reference')(event.target.value)}
              placeholder="Payment reference"
              maxLength={REFERENCE_MAX_LENGTH}
            />
          </div>

          <div className="form-group">
            <label htmlFor="description">Description</label>
            <textarea
              id="description"
              name="description"
              rows={3}
              value={form.description}
              onChange={(event) => update('description')(event.target.value)}
              placeholder="Payment description"
              maxLength={DESCRIPTION_MAX_LENGTH}
            />
          </div>
        </fieldset>

        <button type="submit" className="button button-primary" disabled={processing || sent}>
          {processing ? 'Processing...' : 'Pay with M-PESA'}
        </button>
      </form>
    </section>
  );
}
