import { useRef, useState, type FormEvent } from 'react';
import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import { SCOPES } from '../owner-words';

/** A new key for one of the shop's own systems: a name to know it by, and what it may do. */
export function CreateKeyForm(props: {
  busy: boolean;
  onCreate: (name: string, scope: ApiKeyScope) => Promise<boolean>;
}) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('payments:read');
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    setMissing(trimmed === '');
    if (trimmed === '') {
      input.current?.focus();
      return;
    }
    if (await props.onCreate(trimmed, scope)) setName('');
  }

  return (
    <form
      className="owner-form"
      aria-labelledby="create-key-title"
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <h3 id="create-key-title">Create a key</h3>
      <div className="form-group">
        <label htmlFor="key-name">Name</label>
        <input
          ref={input}
          id="key-name"
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          aria-required="true"
          aria-invalid={missing}
          aria-describedby={missing ? 'key-name-error' : 'key-name-hint'}
        />
        {missing ? (
          <p id="key-name-error" className="field-error" role="alert">
            Enter a name for the key.
          </p>
        ) : (
          <small id="key-name-hint">
            The system that will use it, e.g. “Till 2” or “Accounts”.
          </small>
        )}
      </div>
      <fieldset className="owner-choices">
        <legend>What it may do</legend>
        {SCOPES.map((each) => (
          <label key={each.value} className="owner-choice">
            <input
              type="radio"
              name="key-scope"
              value={each.value}
              checked={scope === each.value}
              onChange={() => setScope(each.value)}
            />
            <span>
              <strong>{each.name}</strong>: {each.can}
            </span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button button-primary" disabled={props.busy}>
        Create key
      </button>
    </form>
  );
}
