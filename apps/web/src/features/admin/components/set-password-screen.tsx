import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { useRefusalMessage } from '../../../i18n/refusal-words';
import { useWords } from '../../../i18n/words';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ownerWords, type OwnerWords } from '../owner-words';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  useSetPassword,
  type SetPasswordFailure,
  type SetPasswordField,
} from '../use-set-password';

const FIELDS: readonly { field: SetPasswordField; label: 'passwordLabel' | 'againLabel' }[] = [
  { field: 'password', label: 'passwordLabel' },
  { field: 'again', label: 'againLabel' },
];

/** Why it failed, in the screens' language: the API's refusal by its code, or ours. */
function useFailureMessage(said: OwnerWords['setPassword']) {
  const owner = useWords(ownerWords);
  const refusal = useRefusalMessage();
  return (failure: SetPasswordFailure): string => {
    if (failure.kind === 'unreachable') return owner.unreachable;
    if (failure.kind === 'refused') return refusal(failure.error) || said.failed;
    return said.failed;
  };
}

/** Where the one-time link an owner made leads: the operator chooses their password. */
export function SetPasswordScreen() {
  const words = useWords(ownerWords).setPassword;
  useDocumentTitle(words.title);
  const { form, update, invalid, error, linkInvalid, done, pending, submit } = useSetPassword();
  const failureMessage = useFailureMessage(words);
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
        <p>{words.done(done)}</p>
        <Link to={paths.signIn}>{words.goToSignIn}</Link>
      </div>
    );
  } else if (linkInvalid || error) {
    outcome = (
      <div className="error-message" role="alert" tabIndex={-1} ref={said}>
        <p>{linkInvalid || !error ? words.linkInvalid : failureMessage(error)}</p>
      </div>
    );
  }

  return (
    <section className="card sign-in" aria-labelledby="set-password-title">
      <h2 id="set-password-title">{words.title}</h2>
      {outcome}
      {done === null && !linkInvalid && (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <p id="password-rule">{words.rule(PASSWORD_MIN, PASSWORD_MAX)}</p>
          {FIELDS.map(({ field, label }) => {
            const wrong = invalid?.field === field;
            return (
              <div className="form-group" key={field}>
                <label htmlFor={`set-${field}`}>{words[label]}</label>
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
                    {invalid.reason === 'length'
                      ? words.tooShortOrLong(PASSWORD_MIN, PASSWORD_MAX)
                      : words.notTheSame}
                  </p>
                )}
              </div>
            );
          })}
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? words.setting : words.submit}
          </button>
        </form>
      )}
    </section>
  );
}
