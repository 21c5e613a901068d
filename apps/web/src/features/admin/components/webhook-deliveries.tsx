import { useInfiniteQuery } from '@tanstack/react-query';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import { LoadMore } from '../../../lib/load-more';
import { deliveriesQueryOptions, type WebhookDelivery } from '../api/webhooks-api';
import { webhookWords } from '../webhook-words';
import { OwnerProblem } from './owner-parts';

/** The event's name in the owner's words, the type itself when it is one the words do not know. */
function useEventName() {
  const said = useWords(webhookWords);
  return (type: string) => said.events[type as keyof typeof said.events] ?? type;
}

/** One delivery: when, the event, what the endpoint answered, how long it took, where it stands. */
function DeliveryRow(props: {
  delivery: WebhookDelivery;
  busy: boolean;
  onResend: (delivery: WebhookDelivery) => void;
}) {
  const { delivery } = props;
  const said = useWords(webhookWords).deliveries;
  const language = useLanguage();
  const eventName = useEventName();
  const { columns } = said;
  const date = (value: string) => formatDate(value, language);
  const tried = delivery.lastAttemptAt !== null;
  return (
    <tr role="row">
      <td role="cell" data-label={columns.when}>
        {date(delivery.createdAt)}
      </td>
      <td role="cell" data-label={columns.event}>
        {eventName(delivery.eventType)}
        <code className="audit-detail">{delivery.eventId}</code>
      </td>
      <td role="cell" data-label={columns.status}>
        {!tried ? said.notYet : (delivery.lastStatus ?? said.noAnswer)}
        {delivery.lastError && <span className="audit-detail">{delivery.lastError}</span>}
      </td>
      <td role="cell" data-label={columns.took}>
        {delivery.lastDurationMs === null ? '' : said.ms(delivery.lastDurationMs)}
      </td>
      <td role="cell" data-label={columns.answer}>
        {delivery.lastResponse && <code className="webhook-answer">{delivery.lastResponse}</code>}
      </td>
      <td role="cell" data-label={columns.attempts}>
        {delivery.attempts}
      </td>
      <td role="cell" data-label={columns.state}>
        <span className={`webhook-state webhook-state-${delivery.state}`}>
          {said.states[delivery.state]}
        </span>
        {delivery.state === 'retrying' && delivery.nextAttemptAt && (
          <span className="audit-detail">{said.nextAt(date(delivery.nextAttemptAt))}</span>
        )}
      </td>
      <td role="cell" data-label={columns.action}>
        <button
          type="button"
          className="button button-secondary"
          disabled={props.busy}
          onClick={() => props.onResend(delivery)}
          aria-label={said.resendOf(`${eventName(delivery.eventType)} ${delivery.eventId}`)}
        >
          {said.resend}
        </button>
      </td>
    </tr>
  );
}

/** An endpoint's deliveries, newest first, a page at a time, each with "Resend". */
export function WebhookDeliveries(props: {
  endpointId: string;
  /** The id of the heading that names the list (the endpoint's own). */
  titleId: string;
  busy: boolean;
  onResend: (delivery: WebhookDelivery) => void;
}) {
  const said = useWords(webhookWords).deliveries;
  const query = useInfiniteQuery(deliveriesQueryOptions(props.endpointId));
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage } = query;
  const deliveries = data?.pages.flatMap((page) => page.deliveries) ?? [];

  let body;
  if (!data) {
    body = query.isError ? (
      <OwnerProblem error={query.error} />
    ) : (
      <p role="status">{said.loading}</p>
    );
  } else if (deliveries.length === 0) {
    body = <p>{said.empty}</p>;
  } else {
    body = (
      <table
        className="owner-table webhook-deliveries"
        role="table"
        aria-labelledby={props.titleId}
      >
        <thead role="rowgroup">
          <tr role="row">
            {Object.values(said.columns).map((column) => (
              <th key={column} role="columnheader" scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {deliveries.map((delivery) => (
            <DeliveryRow
              key={delivery.id}
              delivery={delivery}
              busy={props.busy}
              onResend={props.onResend}
            />
          ))}
        </tbody>
      </table>
    );
  }
  return (
    <>
      {body}
      {data && query.isFetchNextPageError && <OwnerProblem error={query.error} />}
      {hasNextPage && (
        <LoadMore
          loading={isFetchingNextPage}
          onClick={() => void fetchNextPage()}
          label={said.showOlder}
          loadingLabel={said.loading}
        />
      )}
    </>
  );
}
