import type { RefObject } from 'react';
import { DESCRIPTION_MAX_LENGTH, MIN_AMOUNT, REFERENCE_MAX_LENGTH } from '@mpesa/shared';
import type { PaymentRequest } from '../api/initiate-payment';
import type { CheckedField, Invalid } from '../payment-problems';
import { paymentWords, type PaymentWords } from '../payment-words';

/** Beside the specification's hint: what it leaves out. */
export const PHONE_HINT_MORE = paymentWords.en.phoneHintMore;

/** A checked field's message, under the field and named as its description. */
function FieldError({ field, invalid, messageOf }: { field: CheckedField } & Problems) {
  const problem = invalid.find((each) => each.field === field);
  if (!problem) return null;
  return (
    <p id={`${field}-error`} className="field-error" role="alert">
      {messageOf(problem)}
    </p>
  );
}

/** The fields in trouble, and what each says. */
interface Problems {
  invalid: readonly Invalid[];
  messageOf: (problem: Invalid) => string;
}

const inTrouble = (field: CheckedField, invalid: readonly Invalid[]) =>
  invalid.some((each) => each.field === field);

/** The ids that describe a field: its message first, when it has one, then its hint. */
function describedBy(field: CheckedField, invalid: readonly Invalid[], hint?: string) {
  const ids = [inTrouble(field, invalid) ? `${field}-error` : '', hint ?? ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

interface FieldsProps {
  form: PaymentRequest;
  update: (field: keyof PaymentRequest) => (value: string) => void;
  words: PaymentWords;
}

/** The phone number and the amount: the fields the form checks, each with its message. */
export function CheckedFields({
  form,
  update,
  words,
  invalid,
  messageOf,
  phoneInput,
  amountInput,
}: FieldsProps &
  Problems & {
    phoneInput: RefObject<HTMLInputElement | null>;
    amountInput: RefObject<HTMLInputElement | null>;
  }) {
  return (
    <>
      <div className="form-group">
        <label htmlFor="phoneNumber">{words.phoneLabel}</label>
        <input
          ref={phoneInput}
          type="text"
          id="phoneNumber"
          name="phoneNumber"
          inputMode="tel"
          autoComplete="tel"
          value={form.phoneNumber}
          onChange={(event) => update('phoneNumber')(event.target.value)}
          placeholder={words.phonePlaceholder}
          required
          aria-required="true"
          aria-invalid={inTrouble('phoneNumber', invalid)}
          aria-describedby={describedBy(
            'phoneNumber',
            invalid,
            'phoneNumber-hint phoneNumber-more',
          )}
        />
        {/* The specification's hint, then what it leaves out. */}
        <small id="phoneNumber-hint">{words.phoneHint}</small>
        <small id="phoneNumber-more">{words.phoneHintMore}</small>
        <FieldError field="phoneNumber" invalid={invalid} messageOf={messageOf} />
      </div>

      <div className="form-group">
        <label htmlFor="amount">{words.amountLabel}</label>
        <input
          ref={amountInput}
          type="number"
          id="amount"
          name="amount"
          inputMode="numeric"
          min={MIN_AMOUNT}
          value={form.amount}
          onChange={(event) => update('amount')(event.target.value)}
          placeholder={words.amountPlaceholder}
          required
          aria-required="true"
          aria-invalid={inTrouble('amount', invalid)}
          aria-describedby={describedBy('amount', invalid)}
        />
        <FieldError field="amount" invalid={invalid} messageOf={messageOf} />
      </div>
    </>
  );
}

/** The reference and the description, which may be left empty. */
export function OptionalFields({ form, update, words }: FieldsProps) {
  return (
    <>
      <div className="form-group">
        <label htmlFor="reference">{words.referenceLabel}</label>
        <input
          type="text"
          id="reference"
          name="reference"
          value={form.reference}
          onChange={(event) => update('reference')(event.target.value)}
          placeholder={words.referencePlaceholder}
          maxLength={REFERENCE_MAX_LENGTH}
          aria-describedby="reference-hint"
        />
        <small id="reference-hint">{words.referenceHint}</small>
      </div>

      <div className="form-group">
        <label htmlFor="description">{words.descriptionLabel}</label>
        <textarea
          id="description"
          name="description"
          rows={3}
          value={form.description}
          onChange={(event) => update('description')(event.target.value)}
          placeholder={words.descriptionPlaceholder}
          maxLength={DESCRIPTION_MAX_LENGTH}
          aria-describedby="description-hint"
        />
        <small id="description-hint">{words.optional}</small>
      </div>
    </>
  );
}
