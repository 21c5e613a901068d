import { useState } from 'react';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import {
  changeEndpoint,
  removeEndpoint,
  resendDelivery,
  resendFailed,
  sendTestEvent,
  type EndpointAnswer,
  type WebhookEndpoint,
} from '../api/webhooks-api';
import { webhookWords, type WebhookWords } from '../webhook-words';
import { Confirm } from './owner-parts';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEndpointForm, type EndpointFields } from './webhook-endpoint-form';

/** The screen's one change at a time (use-owner-change.ts), and where a new secret is shown. */
export interface EndpointChanges {
  busy: boolean;
  run: <T>(change: () => Promise<T>) => Promise<T | undefined>;
  showSecret: (answer: EndpointAnswer | undefined) => void;
}

/** Whether it is on, and if not, why: an owner turned it off, or its deliveries failed for days. */
function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  const said = useWords(webhookWords).endpoint;
  const language = useLanguage();
  const date = (value: string | null) => formatDate(value, language);
  if (!endpoint.enabled) {
    const failing = endpoint.disabledReason === 'failing';
    return (
      <p className={failing ? 'error-message webhook-off' : 'webhook-off'}>
        {failing
          ? said.offFailing(date(endpoint.disabledAt), date(endpoint.failingSince))
          : said.offByOwner(date(endpoint.disabledAt))}
      </p>
    );
  }
  if (endpoint.failingSince) {
    return <p className="error-message">{said.failing(date(endpoint.failingSince))}</p>;
  }
  return <p>{said.on}</p>;
}

type Asking = 'edit' | 'rotate' | 'remove' | null;

/** The endpoint's buttons, each named with its URL for a screen reader. */
function EndpointActions(props: {
  endpoint: WebhookEndpoint;
  changes: EndpointChanges;
  said: WebhookWords['endpoint'];
  ask: (what: Asking) => void;
  tell: (notice: string) => void;
}) {
  const { endpoint, changes, said } = props;
  const { id, url } = endpoint;
  const button = (label: string, onClick: () => void) => (
    <button
      type="button"
      className="button button-secondary"
      disabled={changes.busy}
      onClick={onClick}
      aria-label={said.of(label, url)}
    >
      {label}
    </button>
  );
  return (
    <div className="owner-actions">
      {button(
        said.sendTest,
        () =>
          void changes
            .run(() => sendTestEvent(id))
            .then((sent) => {
              if (sent !== undefined) props.tell(said.testSent);
            }),
      )}
      {button(
        said.resendFailed,
        () =>
          void changes
            .run(() => resendFailed(id))
            .then((count) => {
              if (count !== undefined) props.tell(said.resentFailed(count));
            }),
      )}
      {button(said.edit, () => props.ask('edit'))}
      {button(
        endpoint.enabled ? said.turnOff : said.turnOn,
        () => void changes.run(() => changeEndpoint(id, { enabled: !endpoint.enabled })),
      )}
      {button(said.rotate, () => props.ask('rotate'))}
      {button(said.remove, () => props.ask('remove'))}
    </div>
  );
}

/**
 * What an owner is asked, in place of the buttons: the form that changes the endpoint, or "Are
 * you sure?" before a new secret or a removal; the buttons when nothing is asked.
 */
function EndpointAsk(props: {
  endpoint: WebhookEndpoint;
  changes: EndpointChanges;
  asking: Asking;
  ask: (what: Asking) => void;
  tell: (notice: string) => void;
}) {
  const { endpoint, changes, asking, ask } = props;
  const words = useWords(webhookWords);
  const said = words.endpoint;
  const done = () => ask(null);

  async function save(fields: EndpointFields) {
    const changed = await changes.run(() => changeEndpoint(endpoint.id, fields));
    if (changed) done();
    return changed !== undefined;
  }
  async function rotate() {
    const answer = await changes.run(() => changeEndpoint(endpoint.id, { rotateSecret: true }));
    done();
    changes.showSecret(answer);
  }
  const confirm = (question: string, yes: string, onYes: () => void) => (
    <Confirm
      question={question}
      yes={yes}
      no={words.form.cancel}
      busy={changes.busy}
      onYes={onYes}
      onNo={done}
    />
  );

  if (asking === 'edit') {
    return (
      <WebhookEndpointForm
        id={`webhook-${endpoint.id}-edit`}
        initial={{ url: endpoint.url, events: endpoint.events }}
        busy={changes.busy}
        onSubmit={save}
        onCancel={done}
      />
    );
  }
  if (asking === 'rotate') return confirm(said.rotateQuestion, said.rotateYes, () => void rotate());
  if (asking === 'remove') {
    return confirm(said.removeQuestion(endpoint.url), said.removeYes, () => {
      void changes.run(() => removeEndpoint(endpoint.id)).then(done);
    });
  }
  return (
    <EndpointActions
      endpoint={endpoint}
      changes={changes}
      said={said}
      ask={ask}
      tell={props.tell}
    />
  );
}

/** One endpoint: its URL, events and state, what an owner can do with it, and its deliveries. */
export function WebhookEndpointCard(props: {
  endpoint: WebhookEndpoint;
  changes: EndpointChanges;
}) {
  const { endpoint, changes } = props;
  const words = useWords(webhookWords);
  const said = words.endpoint;
  const [asking, setAsking] = useState<Asking>(null);
  const [notice, setNotice] = useState('');
  const titleId = `webhook-${endpoint.id}`;

  async function resend(deliveryId: string) {
    if ((await changes.run(() => resendDelivery(deliveryId))) !== undefined) {
      setNotice(words.deliveries.resent);
    }
  }

  return (
    <article className="webhook-endpoint" aria-label={said.label(endpoint.url)}>
      <h3 id={titleId} className="webhook-url">
        <code>{endpoint.url}</code>
      </h3>
      <EndpointState endpoint={endpoint} />
      <dl className="webhook-facts">
        <dt>{said.eventsLabel}</dt>
        <dd>{endpoint.events.map((event) => words.events[event]).join(', ')}</dd>
        <dt>{said.secretLabel}</dt>
        <dd>
          <code>{endpoint.secretPrefix}</code>
        </dd>
      </dl>
      <EndpointAsk
        endpoint={endpoint}
        changes={changes}
        asking={asking}
        ask={setAsking}
        tell={setNotice}
      />
      <p role="status" className="webhook-notice">
        {notice}
      </p>
      <h4 id={`${titleId}-deliveries`}>{words.deliveries.title}</h4>
      <WebhookDeliveries
        endpointId={endpoint.id}
        titleId={`${titleId}-deliveries`}
        busy={changes.busy}
        onResend={(delivery) => void resend(delivery.id)}
      />
    </article>
  );
}
