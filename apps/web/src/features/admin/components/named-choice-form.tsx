import { useRef, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { useWords } from '../../../i18n/words';
import { ownerWords } from '../owner-words';

/** One of the choices a form offers: its value, its name, and what it lets one do. */
export interface Choice<T extends string> {
  value: T;
  name: string;
  can: string;
}

/** The choices as radio buttons, each with what it allows. */
function Choices<T extends string>(props: {
  name: string;
  legend: string;
  choices: readonly Choice<T>[];
  chosen: T;
  onChoose: (choice: T) => void;
}) {
  return (
    <fieldset className="owner-choices">
      <legend>{props.legend}</legend>
      {props.choices.map((each) => (
        <label key={each.value} className="owner-choice">
          <input
            type="radio"
            name={props.name}
            value={each.value}
            checked={props.chosen === each.value}
            onChange={() => props.onChoose(each.value)}
          />
          <span>
            <strong>{each.name}</strong>: {each.can}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The owner's forms that make something with a name and one choice (an operator and their role,
 * a key and its scope): the name is required and said so in words, the choices are radio buttons
 * with what each allows, and the name is emptied once the owner's change went through.
 */
export function NamedChoiceForm<T extends string>(props: {
  /** Prefix of the form's element ids (`<id>-title`, `<id>-name`…). */
  id: string;
  title: string;
  missingName: string;
  hint?: string;
  nameInput?: InputHTMLAttributes<HTMLInputElement>;
  legend: string;
  choices: readonly Choice<T>[];
  initial: T;
  submitLabel: string;
  busy: boolean;
  onSubmit: (name: string, choice: T) => Promise<boolean>;
}) {
  const { id } = props;
  const [name, setName] = useState('');
  const [choice, setChoice] = useState<T>(props.initial);
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const words = useWords(ownerWords);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    setMissing(trimmed === '');
    if (trimmed === '') {
      input.current?.focus();
      return;
    }
    if (await props.onSubmit(trimmed, choice)) setName('');
  }

  const hintId = props.hint === undefined ? undefined : `${id}-name-hint`;
  return (
    <form
      className="owner-form"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <h3 id={`${id}-title`}>{props.title}</h3>
      <div className="form-group">
        <label htmlFor={`${id}-name`}>{words.nameLabel}</label>
        <input
          ref={input}
          id={`${id}-name`}
          autoComplete="off"
          {...props.nameInput}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          aria-required="true"
          aria-invalid={missing}
          aria-describedby={missing ? `${id}-name-error` : hintId}
        />
        {missing ? (
          <p id={`${id}-name-error`} className="field-error" role="alert">
            {props.missingName}
          </p>
        ) : (
          hintId && <small id={hintId}>{props.hint}</small>
        )}
      </div>
      <Choices
        name={`${id}-choice`}
        legend={props.legend}
        choices={props.choices}
        chosen={choice}
        onChoose={setChoice}
      />
      <button type="submit" className="button button-primary" disabled={props.busy}>
        {props.submitLabel}
      </button>
    </form>
  );
}
