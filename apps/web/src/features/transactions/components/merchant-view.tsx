import type { MerchantDetails } from '@mpesa/shared/contract';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import type { TransactionView } from '../api/transactions-api';
import { detailsWords } from './details-words';

/** A callback's body as it came, laid out when it is JSON. */
function shown(rawBody: string): string {
  try {
    return JSON.stringify(JSON.parse(rawBody), null, 2);
  } catch {
    return rawBody;
  }
}

/** The flag, said where the merchant reads the payment. */
export function FlagNotice({ reason }: { reason: string }) {
  const words = useWords(detailsWords);
  return (
    <div className="flag-notice" role="note">
      {/* The API's own sentence, in English whatever the page's language. */}
      <strong>{words.needsReview}</strong> <span lang="en">{reason}</span>
    </div>
  );
}

/**
 * M-PESA's own words, one click away: the codes and texts Daraja answered, and each callback's body
 * exactly as it came. Identifiers wrap, so they never widen a phone's screen.
 */
export function DarajaMessages({
  transaction,
  merchant,
}: {
  transaction: TransactionView;
  merchant: MerchantDetails;
}) {
  const words = useWords(detailsWords);
  const language = useLanguage();
  const rows: [string, string | null][] = [
    ['ResultCode', transaction.resultCode],
    ['Response', transaction.responseDescription],
    ['CustomerMessage', merchant.customerMessage],
    ['MerchantRequestID', transaction.merchantRequestId],
    ['CheckoutRequestID', transaction.checkoutRequestId],
  ];
  return (
    <details className="daraja-messages">
      <summary>{words.mpesaMessages}</summary>
      <dl className="details">
        {rows
          .filter((row): row is [string, string] => row[1] !== null)
          .map(([label, value]) => (
            <div key={label} className="detail-row detail-sentence" lang="en">
              <dt>{label}</dt>
              <dd className="raw-value">{value}</dd>
            </div>
          ))}
      </dl>
      {merchant.callbacks.length === 0 ? (
        <p className="empty">{words.noCallback}</p>
      ) : (
        <ol className="raw-callbacks">
          {merchant.callbacks.map((callback, index) => (
            <li key={index}>
              <p>
                {words.callbackReceived}{' '}
                <time dateTime={callback.receivedAt}>
                  {formatDate(callback.receivedAt, language)}
                </time>{' '}
                ({callback.outcome})
              </p>
              <pre tabIndex={0} aria-label={words.callbackAsReceived(index + 1)}>
                {shown(callback.rawBody)}
              </pre>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
