import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DEFAULT_DESCRIPTION, DEFAULT_REFERENCE, REDIRECT_DELAY_MS } from '@mpesa/shared';
import { ApiError, newIdempotencyKey } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useInitiatePayment, type PaymentRequest } from './api/initiate-payment';
import { repeatedPayment } from './repeat-payment';
import { rememberTypedPhone } from './typed-phones';
import { answeredByApi, fieldOf, validate, type Invalid } from './payment-problems';

const EMPTY: PaymentRequest = { phoneNumber: '', amount: '', reference: '', description: '' };

/** The details as sent: the phone trimmed, empty optional fields given their defaults. */
const requestFrom = (form: PaymentRequest): PaymentRequest => ({
  phoneNumber: form.phoneNumber.trim(),
  amount: form.amount,
  reference: form.reference || DEFAULT_REFERENCE,
  description: form.description || DEFAULT_DESCRIPTION,
});

/**
 * The Make Payment form's state and its submission: the checks, the request under its
 * Idempotency-Key, and what the payer is told after (a field's problem, a failure, or success and
 * the move to the payment's page).
 */
export function usePaymentSubmission() {
  const navigate = useNavigate();
  const { state } = useLocation();
  const payment = useInitiatePayment();
  // "Try again" on a payment that did not go through opens the form with its details.
  const [form, setForm] = useState<PaymentRequest>(() => repeatedPayment(state) ?? EMPTY);
  /** The fields in trouble, in the form's order. */
  const [invalid, setInvalid] = useState<Invalid[]>([]);
  /** What went wrong (put in words where it is shown, in the language of the moment). */
  const [error, setError] = useState<{ failure: unknown } | null>(null);
  const [sent, setSent] = useState(false);
  /** True from a submission until it fails; after a success, until the page moves on. */
  const busy = useRef(false);
  /**
   * The details sent and their Idempotency-Key, kept until the API answers: details sent again
   * after no answer (or a proxy's) go under the same key, so the API starts them once.
   */
  const unanswered = useRef<{ details: string; key: string } | null>(null);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirect.current), []);

  const update = (field: keyof PaymentRequest) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    setError(null);
    const problems = validate(form);
    setInvalid(problems);
    if (problems.length > 0) return;
    const request = requestFrom(form);
    const details = JSON.stringify(request);
    if (unanswered.current?.details !== details) {
      unanswered.current = { details, key: newIdempotencyKey() };
    }
    busy.current = true;
    try {
      const response = await payment.send({ request, idempotencyKey: unanswered.current.key });
      unanswered.current = null;
      rememberTypedPhone(response.transactionId, request.phoneNumber);
      // The form stays disabled until the page moves on: a second tap now would be a second payment.
      setSent(true);
      redirect.current = setTimeout(() => {
        void navigate(paths.transaction(response.transactionId));
      }, REDIRECT_DELAY_MS);
    } catch (failure) {
      // A request that got no answer from the API may have reached it: the same details go again
      // under the same key. The API's own answer (its body has a code) settles the key.
      if (!(failure instanceof ApiError) || answeredByApi(failure)) unanswered.current = null;
      const field = fieldOf(failure);
      if (field) setInvalid([{ field, failure }]);
      else setError({ failure });
      busy.current = false;
    }
  }

  return { form, update, invalid, error, sent, processing: payment.isPending, submit };
}
