import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TransactionStatus } from '@mpesa/shared';
import type { TransactionEvent } from '@mpesa/shared/contract-events';
import { capitalise, formatDate } from '../../../lib/format';
import { transactionEventsQueryOptions } from '../api/transaction-events-api';
import { isUnauthenticated } from '../../auth/unauthenticated';
import { SignInNotice } from '../../auth/components/sign-in-notice';

/**
 * The status an event brought, when it brought one: said in words (the status badge's), not by the
 * dot's colour alone, so that a failure or an unknown outcome reads as such to everyone.
 */
function outcomeOf(event: TransactionEvent): TransactionStatus | null {
  return event.fromStatus !== event.toStatus && event.toStatus !== 'pending'
    ? event.toStatus
    : null;
}

/**
 * What happened to the payment, oldest first: saved, accepted by M-PESA, the callback, each STK
 * query, reconciliation, a person's review. Its own loading and error texts sit under its own
 * heading and never take the place of the screen's.
 */
export function TransactionTimeline({ id, status }: { id: string; status: TransactionStatus }) {
  const { data: events, error, isPending } = useQuery(transactionEventsQueryOptions(id, status));

  // As for the transaction, a failed refresh keeps the timeline on screen and is only logged.
  useEffect(() => {
    if (error && events) console.warn('Refreshing the timeline failed:', error);
  }, [error, events]);

  return (
    <section className="timeline" aria-labelledby="timeline-title">
      <h3 id="timeline-title">Timeline</h3>
      {isPending ? (
        <p className="loading">Loading timeline...</p>
      ) : !events && isUnauthenticated(error) ? (
        // The payment above is the payer's and stays open; its timeline is the merchant's.
        <SignInNotice />
      ) : !events ? (
        <p className="timeline-error">The timeline could not be loaded.</p>
      ) : events.length === 0 ? (
        <p className="empty">Nothing has been recorded yet.</p>
      ) : (
        <ol className="timeline-list">
          {events.map((event, index) => (
            // Events are only ever added at the end, so a position names one for good.
            <li
              key={index}
              className={`timeline-event timeline-event-${outcomeOf(event) ?? 'step'}`}
            >
              <time dateTime={event.at}>{formatDate(event.at)}</time>
              <span className="timeline-event-title">
                {outcomeOf(event) && (
                  <>
                    {/* The status badge's colours, not its class: the page's badge is the one. */}
                    <span className={`timeline-mark status-badge-${outcomeOf(event)}`}>
                      {capitalise(outcomeOf(event)!)}
                    </span>{' '}
                  </>
                )}
                {event.title}
              </span>
              {event.detail && <span className="timeline-event-detail">{event.detail}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
