import { useId, useRef, useState, type FormEvent } from 'react';
import { useWords } from '../../../i18n/words';
import { ApiError } from '../../../lib/api-client';
import { OwnerProblem } from '../../admin/components/owner-parts';
import { proposeBatch, type Payout } from '../api/payouts-api';
import { payoutWords } from '../payouts-words';

interface RowProblem {
  row: number;
  field: string;
  message: string;
}

/** A refused file's rows and their problems, when the refusal is one. */
function rowProblems(error: unknown): RowProblem[] | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as { code?: string; problems?: RowProblem[] } | undefined;
  return body?.code === 'PAYOUT_BATCH_REFUSED' && Array.isArray(body.problems)
    ? body.problems
    : null;
}

/** A CSV file of payouts proposed whole, or refused whole with each row's problems listed. */
export function BatchForm(props: {
  onProposed: (payouts: Payout[]) => void;
  run: <T>(change: () => Promise<T>) => Promise<T | undefined>;
  busy: boolean;
  error: unknown;
}) {
  const words = useWords(payoutWords);
  const said = words.batch;
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [noFile, setNoFile] = useState(false);
  const problems = rowProblems(props.error);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = input.current?.files?.[0];
    setNoFile(!file);
    if (!file) return;
    const text = await file.text();
    const payouts = await props.run(() => proposeBatch(text));
    if (payouts) {
      if (input.current) input.current.value = '';
      props.onProposed(payouts);
    }
  }

  return (
    <form
      className="card payouts-form"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3 id={`${id}-title`}>{said.title}</h3>
      <p id={`${id}-hint`}>{said.hint}</p>
      <div className="form-group">
        <label htmlFor={`${id}-file`}>{said.file}</label>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          aria-describedby={noFile ? `${id}-nofile` : `${id}-hint`}
          aria-invalid={noFile}
        />
        {noFile && (
          <p id={`${id}-nofile`} className="field-error" role="alert">
            {said.noFile}
          </p>
        )}
      </div>
      {problems ? (
        <div className="error-message" role="alert">
          <p>{said.refused}</p>
          <ul>
            {problems.map((problem, index) => (
              <li key={index}>
                {said.row(problem.row)}: {words.fields[problem.field] ?? problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        props.error !== null && <OwnerProblem error={props.error} />
      )}
      <button type="submit" className="button" disabled={props.busy}>
        {said.submit}
      </button>
    </form>
  );
}
