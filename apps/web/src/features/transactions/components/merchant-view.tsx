import type { TransactionStatus } from '@mpesa/shared';
import type { MerchantDetails } from '@mpesa/shared/contract';
import { formatDate } from '../../../lib/format';
import type { TransactionView } from '../api/transactions-api';

/**
 * What a payment's status means to the shop (the merchant's view, HISTORY_ACCESS=operators): the
 * payer's page says "You paid"; the shop reads what it must do, if anything.
 */
export const MERCHANT_SENTENCES: Readonly<Record<TransactionStatus, string>> = {
  pending: 'Waiting for the customer to answer the M-PESA prompt on their phone.',
  success: 'The customer paid. M-PESA sent them a confirmation message.',
  failed: 'M-PESA did not complete this payment. No money moved.',
  cancelled: 'The customer cancelled the prompt. No money moved.',
  timeout: 'The customer did not answer the prompt in time. No money moved.',
  unknown:
    'M-PESA never said whether this payment went through. Check the M-PESA statement for this amount from this phone before asking for the money again.',
};

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
  return (
    <div className="flag-notice" role="note">
      <strong>Needs a person’s review.</strong> {reason}
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
  const rows: [string, string | null][] = [
    ['ResultCode', transaction.resultCode],
    ['Response', transaction.responseDescription],
    ['CustomerMessage', merchant.customerMessage],
    ['MerchantRequestID', transaction.merchantRequestId],
    ['CheckoutRequestID', transaction.checkoutRequestId],
  ];
  return (
    <details className="daraja-messages">
      <summary>M-PESA’s own messages</summary>
      <dl className="details">
        {rows
          .filter((row): row is [string, string] => row[1] !== null)
          .map(([label, value]) => (
            <div key={label} className="detail-row detail-sentence">
              <dt>{label}</dt>
              <dd className="raw-value">{value}</dd>
            </div>
          ))}
      </dl>
      {merchant.callbacks.length === 0 ? (
        <p className="empty">No callback from M-PESA has arrived for this payment.</p>
      ) : (
        <ol className="raw-callbacks">
          {merchant.callbacks.map((callback, index) => (
            <li key={index}>
              <p>
                Callback received{' '}
                <time dateTime={callback.receivedAt}>{formatDate(callback.receivedAt)}</time> (
                {callback.outcome})
              </p>
              <pre tabIndex={0} aria-label={`Callback ${index + 1} as received`}>
                {shown(callback.rawBody)}
              </pre>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
