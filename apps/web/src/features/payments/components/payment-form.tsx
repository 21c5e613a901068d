import { useEffect, useRef } from 'react';
import { useConfig } from '../../system/api/system-api';
import { useSignedIn } from '../../auth/history-reach';
import { useRefusalMessage } from '../../../i18n/refusal-words';
import { useWords } from '../../../i18n/words';
import { invalidMessage, failureMessage, noAnswerDetail } from '../payment-problems';
import { paymentWords } from '../payment-words';
import { usePaymentSubmission } from '../use-payment-submission';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { shellWords } from '../../../i18n/shell-words';
import { CheckedFields, OptionalFields } from './payment-fields';

export const SUCCESS_MESSAGE = paymentWords.en.success;

export function PaymentForm() {
  const words = useWords(paymentWords);
  const shell = useWords(shellWords);
  const refusal = useRefusalMessage();
  useDocumentTitle(shell.makePayment);
  const config = useConfig();
  // The shop's people signed in ask a customer to pay: the form speaks of the customer.
  const staff = useSignedIn();
  const { form, update, invalid, error, sent, processing, submit } = usePaymentSubmission();
  const phoneInput = useRef<HTMLInputElement>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);

  // Focus goes to what needs the payer: the first field to correct, or the reason the payment
  // failed.
  useEffect(() => {
    const first = invalid[0];
    if (first) (first.field === 'amount' ? amountInput : phoneInput).current?.focus();
  }, [invalid]);
  useEffect(() => {
    if (error) errorBox.current?.focus();
  }, [error]);

  return (
    <section className="card payment-form" aria-labelledby="payment-title">
      <h2 id="payment-title">{words.title}</h2>
      <p className="payment-intro">
        {config?.businessName && (
          <>
            {staff ? words.payingBeforeStaff : words.payingBefore}
            <strong>{config.businessName}</strong>
            {words.payingAfter}{' '}
          </>
        )}
        {staff ? words.introForStaff : words.intro}
      </p>

      <div aria-live="assertive" className="messages">
        {error && (
          <div className="error-message" role="alert" tabIndex={-1} ref={errorBox}>
            <p>{failureMessage(error.failure, words, refusal)}</p>
            {noAnswerDetail(error.failure, words) && <p>{noAnswerDetail(error.failure, words)}</p>}
          </div>
        )}
      </div>
      <div aria-live="polite" className="messages">
        {sent && (
          <div className="success-message" role="status">
            <p>{words.success}</p>
            <p>{words.redirect}</p>
          </div>
        )}
      </div>

      {/* The browser's own bubbles are off so that the specification's messages are the ones shown. */}
      <form onSubmit={submit} noValidate>
        <fieldset className="form-fields" disabled={sent}>
          <CheckedFields
            form={form}
            update={update}
            words={words}
            invalid={invalid}
            messageOf={(problem) => invalidMessage(problem, words, refusal)}
            phoneInput={phoneInput}
            amountInput={amountInput}
          />
          <OptionalFields form={form} update={update} words={words} />
        </fieldset>

        {/* On a phone it stays in view at the screen's foot while the fields above are filled. */}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={processing || sent}>
            {processing ? words.processing : words.submit}
          </button>
        </div>
      </form>
    </section>
  );
}
