import { useEffect, useRef, type RefObject } from 'react';
import { useWords } from '../../../i18n/words';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { authWords } from '../auth-words';
import { useSignIn, useSignInProblem, type SignInField, type SignInInvalid } from '../use-sign-in';

interface FieldProps {
  field: SignInField;
  label: string;
  type: 'text' | 'password';
  autoComplete: 'username' | 'current-password';
  value: string;
  onChange: (value: string) => void;
  invalid: SignInInvalid | null;
  /** The field's message, in the screens' language. */
  message: string;
  input: RefObject<HTMLInputElement | null>;
}

/** A labelled field, its message under it and named as its description (as the payment form's). */
function Field(props: FieldProps) {
  const { field, label, type, autoComplete, value, onChange, invalid, message, input } = props;
  const wrong = invalid?.field === field;
  return (
    <div className="form-group">
      <label htmlFor={field}>{label}</label>
      <input
        ref={input}
        type={type}
        id={field}
        name={field}
        autoComplete={autoComplete}
        autoCapitalize="none"
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required
        aria-required="true"
        aria-invalid={wrong}
        aria-describedby={wrong ? `${field}-error` : undefined}
      />
      {wrong && (
        <p id={`${field}-error`} className="field-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

/** The operators' door to the merchant's screens (HISTORY_ACCESS=operators). */
export function SignInForm() {
  const words = useWords(authWords);
  useDocumentTitle(words.signIn);
  const { form, update, invalid, error, pending, submit } = useSignIn();
  const problem = useSignInProblem();
  const message = !invalid
    ? ''
    : invalid.error === undefined
      ? words.missing[invalid.field]
      : problem(invalid.error);
  const nameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);

  // Focus goes to what needs the person: the field to fill in, or why signing in failed.
  useEffect(() => {
    if (invalid) (invalid.field === 'name' ? nameInput : passwordInput).current?.focus();
  }, [invalid]);
  useEffect(() => {
    if (error !== null) errorBox.current?.focus();
  }, [error]);

  return (
    <section className="card sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">{words.signIn}</h2>
      <div aria-live="assertive" className="messages">
        {error !== null && (
          <div className="error-message" role="alert" tabIndex={-1} ref={errorBox}>
            <p>{problem(error)}</p>
          </div>
        )}
      </div>
      {/* The browser's own bubbles are off so that the form's messages are the ones shown. */}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          field="name"
          label={words.nameLabel}
          type="text"
          autoComplete="username"
          value={form.name}
          onChange={update('name')}
          invalid={invalid}
          message={message}
          input={nameInput}
        />
        <Field
          field="password"
          label={words.passwordLabel}
          type="password"
          autoComplete="current-password"
          value={form.password}
          onChange={update('password')}
          invalid={invalid}
          message={message}
          input={passwordInput}
        />
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? words.signingIn : words.signIn}
        </button>
      </form>
    </section>
  );
}
