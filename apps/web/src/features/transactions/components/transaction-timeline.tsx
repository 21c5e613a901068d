import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { RefundStatus, TransactionStatus } from '@mpesa/shared';
import type { TransactionEvent } from '@mpesa/shared/contract-events';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import { outcomeWords } from '../outcome-words';
import { eventSentence, type Reader } from '../outcomes';
import { statusWords } from '../status-words';
import { detailsWords } from './details-words';
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
 * The API's own English title and detail of an event, one click away under the table's sentence
 * (the words a merchant may quote to M-PESA or to us).
 */
function DarajaWords({ event }: { event: TransactionEvent }) {
  const words = useWords(detailsWords);
  return (
    <details className="timeline-event-detail">
      <summary>{words.darajaWords}</summary>
      <span lang="en">
        {event.title}
        {event.detail && ` · ${event.detail}`}
      </span>
    </details>
  );
}

/**
 * What happened to the payment, oldest first: saved, accepted by M-PESA, M-PESA's answers, our
 * questions to M-PESA, giving up asking, a person's review. Its own loading and error texts sit
 * under its own heading and never take the place of the screen's. Failures and unknown outcomes
 * are marked in words (the status badge's), not by the dot's colour alone.
 */
export function TransactionTimeline({
  id,
  status,
  refund = null,
  reader = 'merchant',
}: {
  id: string;
  status: TransactionStatus;
  /** The payment's refund's status, if it has one: the timeline is read again when it changes. */
  refund?: RefundStatus | null;
  reader?: Reader;
}) {
  const {
    data: events,
    error,
    isPending,
  } = useQuery(transactionEventsQueryOptions(id, status, refund));
  const words = useWords(detailsWords);
  const statuses = useWords(statusWords);
  const language = useLanguage();
  const outcomes = useWords(outcomeWords);

  // As for the transaction, a failed refresh keeps the timeline on screen and is only logged.
  useEffect(() => {
    if (error && events) console.warn('Refreshing the timeline failed:', error);
  }, [error, events]);

  return (
    <section className="timeline" aria-labelledby="timeline-title">
      <h3 id="timeline-title">{words.timeline}</h3>
      {isPending ? (
        <p className="loading">{words.timelineLoading}</p>
      ) : !events && isUnauthenticated(error) ? (
        // The payment above is the payer's and stays open; its timeline is the merchant's.
        <SignInNotice />
      ) : !events ? (
        <p className="timeline-error">{words.timelineFailed}</p>
      ) : events.length === 0 ? (
        <p className="empty">{words.timelineEmpty}</p>
      ) : (
        <ol className="timeline-list">
          {events.map((event, index) => {
            const outcome = outcomeOf(event);
            return (
              // Events are only ever added at the end, so a position names one for good.
              <li key={index} className={`timeline-event timeline-event-${outcome ?? 'step'}`}>
                <time dateTime={event.at}>{formatDate(event.at, language)}</time>
                <span className="timeline-event-title">
                  {outcome && (
                    <>
                      {/* The status badge's colours, not its class: the page's badge is the one. */}
                      <span className={`timeline-mark status-badge-${outcome}`}>
                        {statuses[outcome]}
                      </span>{' '}
                    </>
                  )}
                  {/* The table's sentence in the reader's language (outcome-words); the API's
                      own words one click away. */}
                  {eventSentence(outcomes, statuses, event, reader)}
                </span>
                <DarajaWords event={event} />
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
