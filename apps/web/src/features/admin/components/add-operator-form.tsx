import { useRef, useState, type FormEvent } from 'react';
import type { OperatorRole } from '@mpesa/shared/contract-auth';
import { ROLES } from '../owner-words';

/** Adding an operator: a name and what they can do. They choose their password by the link. */
export function AddOperatorForm(props: {
  busy: boolean;
  onAdd: (name: string, role: OperatorRole) => Promise<boolean>;
}) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('viewer');
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
    if (await props.onAdd(trimmed, role)) setName('');
  }

  return (
    <form
      className="owner-form"
      aria-labelledby="add-operator-title"
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <h3 id="add-operator-title">Add an operator</h3>
      <div className="form-group">
        <label htmlFor="operator-name">Name</label>
        <input
          ref={input}
          id="operator-name"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          aria-required="true"
          aria-invalid={missing}
          aria-describedby={missing ? 'operator-name-error' : undefined}
        />
        {missing && (
          <p id="operator-name-error" className="field-error" role="alert">
            Enter their name.
          </p>
        )}
      </div>
      <fieldset className="owner-choices">
        <legend>What they can do</legend>
        {ROLES.map((each) => (
          <label key={each.value} className="owner-choice">
            <input
              type="radio"
              name="operator-role"
              value={each.value}
              checked={role === each.value}
              onChange={() => setRole(each.value)}
            />
            <span>
              <strong>{each.name}</strong>: {each.can}
            </span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button button-primary" disabled={props.busy}>
        Add operator
      </button>
    </form>
  );
}
