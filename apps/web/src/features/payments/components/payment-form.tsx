import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_REFERENCE,
  DESCRIPTION_MAX_LENGTH,
  MIN_AMOUNT,
  REFERENCE_MAX_LENGTH,
  REDIRECT_DELAY_MS,
  isClientValidPhone,
  messages,
} from '@mpesa/shared';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../app/paths';
import { useInitiatePayment, type PaymentRequest } from '../api/initiate-payment';
import { useDocumentTitle } from '../../../lib/use-document-title';

export const SUCCESS_MESSAGE = 'Payment initiated! Check your phone to complete the transaction.';
export const FAILURE_FALLBACK = 'Failed to initiate payment. Please try again.';

const EMPTY: PaymentRequest = { phoneNumber: '', amount: '', reference: '', description: '' };

/** The specification's checks, in its order (spec §5). */
function validate(form: PaymentRequest): string | null {
  if (!isClientValidPhone(form.phoneNumber)) return messages.invalidPhone;
  const amount = Number.parseFloat(form.amount);
  if (Number.isNaN(amount) || amount < MIN_AMOUNT) return messages.amountTooSmall;
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

export function PaymentForm() {
  useDocumentTitle('Make Payment');
  const navigate = useNavigate();
  const payment = useInitiatePayment();
  const [form, setForm] = useState<PaymentRequest>(EMPTY);
  const [error, setError] = useState('');
  const [success, setSuccess] = useState('');
  const [invalidField, setInvalidField] = useState<'phoneNumber' | 'amount' | null>(null);
  const busy = useRef(false);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirect.current), []);

  const update = (field: keyof PaymentRequest) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    setError('');
    setSuccess('');
    const problem = validate(form);
    if (problem) {
      setError(problem);
      setInvalidField(problem === messages.invalidPhone ? 'phoneNumber' : 'amount');
      return;
    }
    setInvalidField(null);
    busy.current = true;
    try {
      const response = await payment.mutateAsync({
        phoneNumber: form.phoneNumber.trim(),
        amount: form.amount,
        reference: form.reference || DEFAULT_REFERENCE,
        description: form.description || DEFAULT_DESCRIPTION,
      });
      setSuccess(SUCCESS_MESSAGE);
      clearTimeout(redirect.current);
      redirect.current = setTimeout(() => {
        void navigate(paths.transaction(response.transactionId));
      }, REDIRECT_DELAY_MS);
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      busy.current = false;
    }
  }

  const processing = payment.isPending;

  return (
    <section className="card payment-form" aria-labelledby="payment-title">
      <h2 id="payment-title">M-PESA Payment</h2>

      <div aria-live="assertive" className="messages">
        {error && (
          <p className="error-message" role="alert">
            {error}
          </p>
        )}
      </div>
      <div aria-live="polite" className="messages">
        {success && (
          <p className="success-message" role="status">
            {success}
          </p>
        )}
      </div>

      {/* The browser's own bubbles are off so that the specification's messages are the ones shown. */}
      <form onSubmit={handleSubmit} noValidate>
        <div className="form-group">
          <label htmlFor="phoneNumber">Phone Number</label>
          <input
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
            aria-invalid={invalidField === 'phoneNumber'}
            aria-describedby="phoneNumber-hint"
          />
          <small id="phoneNumber-hint">Format: 07XXXXXXXX or +2547XXXXXXXX</small>
        </div>

        <div className="form-group">
          <label htmlFor="amount">Amount (KES)</label>
          <input
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
            aria-invalid={invalidField === 'amount'}
          />
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

        <button type="submit" className="button button-primary" disabled={processing}>
          {processing ? 'Processing...' : 'Pay with M-PESA'}
        </button>
      </form>
    </section>
  );
}
