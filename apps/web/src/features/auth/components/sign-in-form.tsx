import { useEffect, useRef, type RefObject } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSignIn, type SignInField, type SignInInvalid } from '../use-sign-in';

interface FieldProps {
  field: SignInField;
  label: string;
  type: 'text' | 'password';
  autoComplete: 'username' | 'current-password';
  value: string;
  onChange: (value: string) => void;
  invalid: SignInInvalid | null;
  input: RefObject<HTMLInputElement | null>;
}

/** A labelled field, its message under it and named as its description (as the payment form's). */
function Field({ field, label, type, autoComplete, value, onChange, invalid, input }: FieldProps) {
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
          {invalid.message}
        </p>
      )}
    </div>
  );
}

/** The operators' door to the merchant's screens (HISTORY_ACCESS=operators). */
export function SignInForm() {
  useDocumentTitle('Sign in');
  const { form, update, invalid, error, pending, submit } = useSignIn();
  const nameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);

  // Focus goes to what needs the person: the field to fill in, or why signing in failed.
  useEffect(() => {
    if (invalid) (invalid.field === 'name' ? nameInput : passwordInput).current?.focus();
  }, [invalid]);
  useEffect(() => {
    if (error) errorBox.current?.focus();
  }, [error]);

  return (
    <section className="card sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Sign in</h2>
      <div aria-live="assertive" className="messages">
        {error && (
          <div className="error-message" role="alert" tabIndex={-1} ref={errorBox}>
            <p>{error}</p>
          </div>
        )}
      </div>
      {/* The browser's own bubbles are off so that the form's messages are the ones shown. */}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          field="name"
          label="Name"
          type="text"
          autoComplete="username"
          value={form.name}
          onChange={update('name')}
          invalid={invalid}
          input={nameInput}
        />
        <Field
          field="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={form.password}
          onChange={update('password')}
          invalid={invalid}
          input={passwordInput}
        />
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
