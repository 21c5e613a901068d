import { useRef, useState, type FormEvent, type Ref } from 'react';
import { useWords } from '../../../i18n/words';
import { useConfig } from '../../system/api/system-api';
import { WEBHOOK_EVENTS, simulatorReceiver, type WebhookEventType } from '../api/webhooks-api';
import { webhookWords } from '../webhook-words';

export interface EndpointFields {
  url: string;
  events: WebhookEventType[];
}

/** The events as checkboxes, each in plain words. */
function EventChoices(props: {
  id: string;
  chosen: readonly WebhookEventType[];
  missing: boolean;
  onChange: (events: WebhookEventType[]) => void;
}) {
  const said = useWords(webhookWords);
  const toggle = (event: WebhookEventType, on: boolean) =>
    props.onChange(
      WEBHOOK_EVENTS.filter((each) => (each === event ? on : props.chosen.includes(each))),
    );
  const errorId = `${props.id}-events-error`;
  return (
    <fieldset className="owner-choices" aria-describedby={props.missing ? errorId : undefined}>
      <legend>{said.form.eventsLegend}</legend>
      {WEBHOOK_EVENTS.map((event) => (
        <label key={event} className="owner-choice">
          <input
            type="checkbox"
            value={event}
            checked={props.chosen.includes(event)}
            onChange={(change) => toggle(event, change.target.checked)}
          />
          <span>
            {said.events[event]} <code className="webhook-type">{event}</code>
          </span>
        </label>
      ))}
      {props.missing && (
        <p id={errorId} className="field-error" role="alert">
          {said.form.missingEvents}
        </p>
      )}
    </fieldset>
  );
}

/** The URL, required: its hint, or why it is wrong. */
function UrlField({
  ref,
  id,
  ...props
}: {
  ref: Ref<HTMLInputElement>;
  id: string;
  url: string;
  missing: boolean;
  onChange: (url: string) => void;
  label: string;
  hint: string;
  error: string;
}) {
  return (
    <div className="form-group">
      <label htmlFor={`${id}-url`}>{props.label}</label>
      <input
        ref={ref}
        id={`${id}-url`}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={props.url}
        onChange={(change) => props.onChange(change.target.value)}
        required
        aria-required="true"
        aria-invalid={props.missing}
        aria-describedby={props.missing ? `${id}-url-error` : `${id}-url-hint`}
      />
      {props.missing ? (
        <p id={`${id}-url-error`} className="field-error" role="alert">
          {props.error}
        </p>
      ) : (
        <small id={`${id}-url-hint`}>{props.hint}</small>
      )}
    </div>
  );
}

/**
 * The form that adds an endpoint, or changes one (`initial` given): its URL, required and said so
 * in words, and the events it is sent, at least one. In simulator mode it offers the simulator's
 * development receiver as the URL. Emptied once an endpoint was added.
 */
export function WebhookEndpointForm(props: {
  /** Prefix of the form's element ids. */
  id: string;
  initial?: EndpointFields;
  busy: boolean;
  onSubmit: (fields: EndpointFields) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const { id } = props;
  const said = useWords(webhookWords).form;
  const config = useConfig();
  const [url, setUrl] = useState(props.initial?.url ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(
    // A new endpoint hears of every payment event unless its owner unticks some: a shop that
    // only ticked "succeeded" never heard of its till payments or refunds.
    props.initial?.events ?? [...WEBHOOK_EVENTS],
  );
  const [missing, setMissing] = useState({ url: false, events: false });
  const input = useRef<HTMLInputElement>(null);
  const simulatorUrl = config?.mpesaEnv === 'simulator' ? config.simulatorUrl : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = url.trim();
    const now = { url: trimmed === '', events: events.length === 0 };
    setMissing(now);
    if (now.url) input.current?.focus();
    if (now.url || now.events) return;
    if ((await props.onSubmit({ url: trimmed, events })) && !props.initial) setUrl('');
  }

  return (
    <form
      className="owner-form webhook-form"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <h3 id={`${id}-title`}>{props.initial ? said.editTitle : said.addTitle}</h3>
      <UrlField
        id={id}
        ref={input}
        url={url}
        missing={missing.url}
        onChange={setUrl}
        label={said.urlLabel}
        hint={said.urlHint}
        error={said.missingUrl}
      />
      {simulatorUrl && (
        <div className="webhook-simulator">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setUrl(simulatorReceiver(simulatorUrl));
              input.current?.focus();
            }}
          >
            {said.useSimulator}
          </button>
          <small>{said.simulatorHint}</small>
        </div>
      )}
      <EventChoices id={id} chosen={events} missing={missing.events} onChange={setEvents} />
      <div className="owner-actions">
        <button type="submit" className="button button-primary" disabled={props.busy}>
          {props.initial ? said.save : said.addSubmit}
        </button>
        {props.onCancel && (
          <button type="button" className="button button-secondary" onClick={props.onCancel}>
            {said.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
