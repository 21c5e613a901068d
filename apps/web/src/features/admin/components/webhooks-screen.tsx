import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useWords } from '../../../i18n/words';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  createEndpoint,
  endpointsQueryOptions,
  webhookKeys,
  type EndpointAnswer,
} from '../api/webhooks-api';
import { useOwnerChange } from '../use-owner-change';
import { webhookWords } from '../webhook-words';
import { OnceShown, OwnerProblem } from './owner-parts';
import { WebhookEndpointCard, type EndpointChanges } from './webhook-endpoint-card';
import { WebhookEndpointForm, type EndpointFields } from './webhook-endpoint-form';

/**
 * An owner's webhook endpoints (docs/webhooks.md): each with its state, its actions and its
 * deliveries, and the form that adds one. A secret, made with an endpoint or anew, is shown once.
 */
export function WebhooksScreen() {
  const words = useWords(webhookWords);
  useDocumentTitle(words.title);
  const list = useQuery(endpointsQueryOptions());
  const change = useOwnerChange(webhookKeys.endpoints);
  const [secret, setSecret] = useState<{ secret: string; rotated: boolean } | null>(null);

  const showSecret = (rotated: boolean) => (answer: EndpointAnswer | undefined) => {
    if (answer?.secret) setSecret({ secret: answer.secret, rotated });
  };
  const changes: EndpointChanges = {
    busy: change.busy,
    run: change.run,
    showSecret: showSecret(true),
  };
  async function add(fields: EndpointFields) {
    const answer = await change.run(() => createEndpoint(fields));
    showSecret(false)(answer);
    return answer !== undefined;
  }

  return (
    <section className="card owner-screen" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{words.title}</h2>
      <p>{words.intro}</p>
      {change.error !== null && <OwnerProblem error={change.error} />}
      {secret && (
        <OnceShown
          title={secret.rotated ? words.secret.rotatedTitle : words.secret.madeTitle}
          secret={secret.secret}
          copyLabel={words.secret.copy}
          onDone={() => setSecret(null)}
        >
          <p>{words.secret.text}</p>
        </OnceShown>
      )}
      {list.isError ? (
        <OwnerProblem error={list.error} />
      ) : !list.data ? (
        <p role="status">{words.loading}</p>
      ) : list.data.length === 0 ? (
        <p>{words.empty}</p>
      ) : (
        list.data.map((endpoint) => (
          <WebhookEndpointCard key={endpoint.id} endpoint={endpoint} changes={changes} />
        ))
      )}
      <WebhookEndpointForm id="webhook-add" busy={change.busy} onSubmit={add} />
    </section>
  );
}
