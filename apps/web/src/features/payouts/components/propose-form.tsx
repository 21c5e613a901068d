import { useId, useState, type FormEvent } from 'react';
import { useWords } from '../../../i18n/words';
import { ApiError } from '../../../lib/api-client';
import { OwnerProblem } from '../../admin/components/owner-parts';
import {
  PAYOUT_KIND_CHOICES,
  proposePayout,
  type Payout,
  type PayoutFields,
} from '../api/payouts-api';
import { payoutWords } from '../payouts-words';

const EMPTY: PayoutFields = {
  kind: 'BusinessPayment',
  to: '',
  account: '',
  amount: '',
  reason: '',
};
type TextName = 'to' | 'account' | 'amount' | 'reason';

/** A failed payout's fields, to correct; empty ones for a new payout. */
function fieldsOf(from: Payout | null): PayoutFields {
  if (!from) return EMPTY;
  const { kind, to, reason } = from;
  return { kind, to, reason, account: from.account ?? '', amount: String(from.amount) };
}

/** The field a refusal is about, when it is one of the form's. */
function fieldOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as { code?: string; field?: string } | undefined;
  return body?.field && ['kind', 'to', 'account', 'amount', 'reason'].includes(body.field)
    ? body.field
    : null;
}

/** One text field: its label, its hint, or why the API refused it, in the screen's language. */
function TextField(props: {
  id: string;
  name: TextName;
  label: string;
  hint?: string;
  value: string;
  wrong: boolean;
  inputMode?: 'tel' | 'numeric';
  maxLength?: number;
  onChange: (value: string) => void;
}) {
  const words = useWords(payoutWords);
  const base = `${props.id}-${props.name}`;
  const describedBy = props.wrong ? `${base}-error` : props.hint ? `${base}-hint` : undefined;
  return (
    <div className="form-group">
      <label htmlFor={base}>{props.label}</label>
      <input
        id={base}
        autoComplete="off"
        value={props.value}
        required
        {...(props.inputMode ? { inputMode: props.inputMode } : {})}
        {...(props.maxLength ? { maxLength: props.maxLength } : {})}
        aria-invalid={props.wrong}
        aria-describedby={describedBy}
        onChange={(change) => props.onChange(change.target.value)}
      />
      {props.wrong ? (
        <p id={`${base}-error`} className="field-error" role="alert">
          {words.fields[props.name]}
        </p>
      ) : (
        props.hint && <small id={`${base}-hint`}>{props.hint}</small>
      )}
    </div>
  );
}

/** The kind of payout, each named in the screen's language. */
function KindField(props: {
  id: string;
  kind: PayoutFields['kind'];
  onChange: (kind: PayoutFields['kind']) => void;
}) {
  const words = useWords(payoutWords);
  return (
    <div className="form-group">
      <label htmlFor={props.id}>{words.form.kind}</label>
      <select
        id={props.id}
        value={props.kind}
        onChange={(change) => props.onChange(change.target.value as PayoutFields['kind'])}
      >
        {PAYOUT_KIND_CHOICES.map((kind) => (
          <option key={kind} value={kind}>
            {words.kinds[kind]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * One payout proposed: its kind, the phone, till or paybill, the account for a paybill, the amount
 * and the reason. A field the API refused is said under it, in the screen's language; any other
 * refusal (a limit, a role) above the button. `correcting`: a failed payout this one replaces.
 */
export function ProposeForm(props: {
  correcting: Payout | null;
  onCancelCorrection: () => void;
  onProposed: (payout: Payout) => void;
  run: <T>(change: () => Promise<T>) => Promise<T | undefined>;
  busy: boolean;
  error: unknown;
}) {
  const words = useWords(payoutWords);
  const said = words.form;
  const id = useId();
  const from = props.correcting;
  const [fields, setFields] = useState<PayoutFields>(() => fieldsOf(from));
  const wrong = fieldOf(props.error);
  const text = (
    name: TextName,
    label: string,
    extra: Partial<Parameters<typeof TextField>[0]> = {},
  ) => (
    <TextField
      id={id}
      name={name}
      label={label}
      value={fields[name]}
      wrong={wrong === name}
      onChange={(value) => setFields((now) => ({ ...now, [name]: value }))}
      {...extra}
    />
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { kind, to, account, amount, reason } = fields;
    const payout = await props.run(() =>
      proposePayout({ kind, to, account, amount, reason, corrects: from?.id }),
    );
    if (payout) {
      setFields(EMPTY);
      props.onProposed(payout);
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
      {from && (
        <p>
          {said.correcting(from.to)}{' '}
          <button
            type="button"
            className="button button-secondary"
            onClick={props.onCancelCorrection}
          >
            {said.cancelCorrection}
          </button>
        </p>
      )}
      <KindField
        id={`${id}-kind`}
        kind={fields.kind}
        onChange={(kind) => setFields((now) => ({ ...now, kind }))}
      />
      {text('to', said.to, { hint: said.toHint, inputMode: 'tel' })}
      {fields.kind === 'BusinessPayBill' && text('account', said.account, { maxLength: 13 })}
      {text('amount', said.amount, { inputMode: 'numeric' })}
      {text('reason', said.reason, { hint: said.reasonHint, maxLength: 100 })}
      {props.error !== null && wrong === null && <OwnerProblem error={props.error} />}
      <button type="submit" className="button" disabled={props.busy}>
        {said.submit}
      </button>
    </form>
  );
}
