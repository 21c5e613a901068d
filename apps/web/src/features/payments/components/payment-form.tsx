import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { REDIRECT_DELAY_MS } from '@mpesa/shared';
import { publicConfigQueryOptions } from '../../system/api/system-api';
import { usePaymentSubmission } from '../use-payment-submission';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { CheckedFields, OptionalFields } from './payment-fields';

export const SUCCESS_MESSAGE = 'Payment initiated! Check your phone to complete the transaction.';
export const REDIRECT_NOTICE = `Opening this payment’s details in ${REDIRECT_DELAY_MS / 1000} seconds.`;

export function PaymentForm() {
  useDocumentTitle('Make Payment');
  const { data: config } = useQuery(publicConfigQueryOptions());
  const { form, update, invalid, error, sent, processing, submit } = usePaymentSubmission();
  const phoneInput = useRef<HTMLInputElement>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);

  // Focus goes to what needs the payer: the field to correct, or the reason the payment failed.
  useEffect(() => {
    if (invalid) (invalid.field === 'amount' ? amountInput : phoneInput).current?.focus();
  }, [invalid]);
  useEffect(() => {
    if (error) errorBox.current?.focus();
  }, [error]);

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
      <form onSubmit={submit} noValidate>
        <fieldset className="form-fields" disabled={sent}>
          <CheckedFields
            form={form}
            update={update}
            invalid={invalid}
            phoneInput={phoneInput}
            amountInput={amountInput}
          />
          <OptionalFields form={form} update={update} />
        </fieldset>

        <button type="submit" className="button button-primary" disabled={processing || sent}>
          {processing ? 'Processing...' : 'Pay with M-PESA'}
        </button>
      </form>
    </section>
  );
}
