import type { RefObject } from 'react';
import {
  DESCRIPTION_MAX_LENGTH,
  MIN_AMOUNT,
  PROMPT_REFERENCE_LENGTH,
  REFERENCE_MAX_LENGTH,
} from '@mpesa/shared';
import type { PaymentRequest } from '../api/initiate-payment';
import type { CheckedField, Invalid } from '../payment-problems';

/** Beside the specification's hint: what it leaves out. */
export const PHONE_HINT_MORE = '01… numbers too; spaces are fine.';

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

interface FieldsProps {
  form: PaymentRequest;
  update: (field: keyof PaymentRequest) => (value: string) => void;
}

/** The phone number and the amount: the fields the form checks, each with its message. */
export function CheckedFields({
  form,
  update,
  invalid,
  phoneInput,
  amountInput,
}: FieldsProps & {
  invalid: Invalid | null;
  phoneInput: RefObject<HTMLInputElement | null>;
  amountInput: RefObject<HTMLInputElement | null>;
}) {
  return (
    <>
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
          aria-describedby={describedBy(
            'phoneNumber',
            invalid,
            'phoneNumber-hint phoneNumber-more',
          )}
        />
        {/* The specification's hint, then what it leaves out. */}
        <small id="phoneNumber-hint">Format: 07XXXXXXXX or +2547XXXXXXXX</small>
        <small id="phoneNumber-more">{PHONE_HINT_MORE}</small>
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
    </>
  );
}

/** The reference and the description, which may be left empty. */
export function OptionalFields({ form, update }: FieldsProps) {
  return (
    <>
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
          aria-describedby="reference-hint"
        />
        <small id="reference-hint">
          Optional. The M-PESA prompt shows its first {PROMPT_REFERENCE_LENGTH} characters.
        </small>
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
          aria-describedby="description-hint"
        />
        <small id="description-hint">Optional.</small>
      </div>
    </>
  );
}
