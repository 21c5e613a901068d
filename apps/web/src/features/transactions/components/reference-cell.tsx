import type { PaymentChannel } from '@mpesa/shared';
import { useWords } from '../../../i18n/words';
import type { Transaction } from '../api/transactions-api';
import { historyWords, type HistoryWords } from '../history-words';
import { shownReference } from './detail-list';
import { detailsWords, type DetailsWords } from './details-words';

/** A till or paybill payment's channel: the customer paid from the phone's own menu. */
function menuChannel(channel: PaymentChannel | undefined): 'till' | 'paybill' | null {
  return channel === 'till' || channel === 'paybill' ? channel : null;
}

/** A row's name for its payment: its reference, or how it came when it has none (a till's). */
export function referenceOf(
  transaction: Transaction,
  words: HistoryWords,
  details: DetailsWords,
): string {
  const channel = menuChannel(transaction.channel);
  const reference = shownReference(transaction.reference, details);
  return reference || (channel ? words.channelTags[channel] : '');
}

/**
 * The reference, with how the payment came when the customer paid from the phone's own menu: a
 * tag inside the specification's Reference column, never a column of its own. A till payment has
 * no reference (the customer types none), and shows the tag alone.
 */
export function ReferenceCell({ transaction }: { transaction: Transaction }) {
  const words = useWords(historyWords);
  const reference = shownReference(transaction.reference, useWords(detailsWords));
  const channel = menuChannel(transaction.channel);
  if (!channel) return reference;
  return (
    <>
      <span className={`channel-tag channel-tag-${channel}`}>{words.channelTags[channel]}</span>
      {reference && ` ${reference}`}
    </>
  );
}
