import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  LINK_INVALID,
  PASSWORD_MAX,
  PASSWORD_MIN,
  useSetPassword,
  type SetPasswordField,
} from '../use-set-password';

const FIELDS: readonly { field: SetPasswordField; label: string }[] = [
  { field: 'password', label: 'New password' },
  { field: 'again', label: 'The same password again' },
];

/** Where the one-time link an owner made leads: the operator chooses their password. */
export function SetPasswordScreen() {
  useDocumentTitle('Set your password');
  const { form, update, invalid, error, linkInvalid, done, pending, submit } = useSetPassword();
  const inputs = useRef<Partial<Record<SetPasswordField, HTMLInputElement | null>>>({});
  const said = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (invalid) inputs.current[invalid.field]?.focus();
  }, [invalid]);
  // The outcome takes focus when it appears: the password is set, the link is dead, or it failed.
  useEffect(() => {
    if (done !== null || linkInvalid || error) said.current?.focus();
  }, [done, linkInvalid, error]);

  let outcome = null;
  if (done !== null) {
    outcome = (
      <div className="success-message" role="status" tabIndex={-1} ref={said}>
        <p>Your password is set, {done}. Sign in with your name and the new password.</p>
        <Link to={paths.signIn}>Go to Sign in</Link>
      </div>
    );
  } else if (linkInvalid || error) {
    outcome = (
      <div className="error-message" role="alert" tabIndex={-1} ref={said}>
        <p>{linkInvalid ? LINK_INVALID : error}</p>
      </div>
    );
  }

  return (
    <section className="card sign-in" aria-labelledby="set-password-title">
      <h2 id="set-password-title">Set your password</h2>
      {outcome}
      {done === null && !linkInvalid && (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <p id="password-rule">
            Choose a password of {PASSWORD_MIN} to {PASSWORD_MAX} characters: a few words you will
            remember are easier to type and harder to guess.
          </p>
          {FIELDS.map(({ field, label }) => {
            const wrong = invalid?.field === field;
            return (
              <div className="form-group" key={field}>
                <label htmlFor={`set-${field}`}>{label}</label>
                <input
                  ref={(input) => void (inputs.current[field] = input)}
                  type="password"
                  id={`set-${field}`}
                  autoComplete="new-password"
                  value={form[field]}
                  onChange={(event) => update(field)(event.target.value)}
                  required
                  aria-required="true"
                  aria-invalid={wrong}
                  aria-describedby={wrong ? `set-${field}-error` : 'password-rule'}
                />
                {wrong && (
                  <p id={`set-${field}-error`} className="field-error" role="alert">
                    {invalid.message}
                  </p>
                )}
              </div>
            );
          })}
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? 'Setting...' : 'Set password'}
          </button>
        </form>
      )}
    </section>
  );
}
