import { useLanguage, useWords } from '../../../i18n/words';
import { formatAmount, formatDate } from '../../../lib/format';
import type { Transaction } from '../api/transactions-api';
import { CopyReceipt } from './copy-receipt';
import { detailsWords, type DetailsWords } from './details-words';
import { DEFAULT_DESCRIPTION, DEFAULT_REFERENCE } from '@mpesa/shared';

/**
 * A field the payer left empty on our form holds its stored default (`Payment`, `Payment for
 * services`), which the page says in its own language. A till or paybill payment's may be empty.
 */
function shownDefault(value: string, stored: string, said: string): string {
  return value === stored ? said : value;
}

/** The reference as the page shows it (the history's rows too). */
export const shownReference = (reference: string, words: DetailsWords) =>
  shownDefault(reference, DEFAULT_REFERENCE, words.defaults.reference);

/** A row of the details; `sentence` for a value that is a sentence, read best left-aligned. */
function DetailRow({
  label,
  value,
  sentence = false,
  lang,
}: {
  label: string;
  value: string;
  sentence?: boolean;
  /** `en` for M-PESA's own words, which are English whatever the page's language. */
  lang?: string;
}) {
  return (
    <div className={sentence ? 'detail-row detail-sentence' : 'detail-row'}>
      <dt>{label}</dt>
      <dd lang={lang}>{value}</dd>
    </div>
  );
}

/**
 * M-PESA's own text (the specification's Response row), always English: as it is on an English
 * page; on a page in another language one click away, behind words in that language.
 */
function ResponseRow({ text }: { text: string }) {
  const words = useWords(detailsWords);
  const language = useLanguage();
  if (language === 'en')
    return <DetailRow label={words.response} value={text} sentence lang="en" />;
  return (
    <div className="detail-row detail-sentence">
      <dt>{words.response}</dt>
      <dd>
        <details className="response-text">
          <summary>{words.responseInEnglish}</summary>
          <span lang="en">{text}</span>
        </details>
      </dd>
    </div>
  );
}

export /** The payment's details, with the receipt's copy button under its row. */
function DetailList({
  transaction,
  outcome,
  reason = null,
  response = true,
}: {
  transaction: Transaction;
  outcome: string | null;
  /** Why it did not go through, by M-PESA's code (the merchant's view). */
  reason?: string | null;
  /** Daraja's own text as a row (the merchant's view has it with M-PESA's other messages). */
  response?: boolean;
}) {
  const words = useWords(detailsWords);
  const language = useLanguage();
  const receipt = transaction.mpesaReceiptNumber;
  const rowsAfterReceipt = (
    <>
      {transaction.transactionDate && (
        <DetailRow
          label={words.transactionDate}
          value={formatDate(transaction.transactionDate, language)}
        />
      )}
      {response && transaction.responseDescription && (
        <ResponseRow text={transaction.responseDescription} />
      )}
      {outcome && <DetailRow label={words.meaning} value={outcome} sentence />}
      {reason && <DetailRow label={words.why} value={reason} sentence />}
    </>
  );
  return (
    <>
      <dl className={receipt ? 'details details-continues' : 'details'}>
        <DetailRow
          label={words.reference}
          value={shownReference(transaction.reference, words) || words.notGiven}
        />
        <DetailRow label={words.phoneNumber} value={transaction.phoneNumber} />
        <DetailRow label={words.amount} value={formatAmount(transaction.amount, language)} />
        <DetailRow
          label={words.description}
          value={
            shownDefault(
              transaction.description,
              DEFAULT_DESCRIPTION,
              words.defaults.description,
            ) || words.notGiven
          }
        />
        <DetailRow label={words.createdAt} value={formatDate(transaction.createdAt, language)} />
        {/* Beside the specification's rows, after them: only a till or paybill payment has these. */}
        {(transaction.channel === 'till' || transaction.channel === 'paybill') && (
          <DetailRow label={words.paidThrough} value={words.channels[transaction.channel]} />
        )}
        {transaction.payerName && (
          <DetailRow label={words.payerName} value={transaction.payerName} />
        )}
        {transaction.linkId && <DetailRow label={words.link} value={words.throughLink} />}
        {receipt ? <DetailRow label={words.receipt} value={receipt} /> : rowsAfterReceipt}
      </dl>
      {/* The button sits under the receipt's row; a <dl> may hold nothing but its rows. */}
      {receipt && (
        <>
          <CopyReceipt receipt={receipt} />
          {(transaction.transactionDate ||
            (response && transaction.responseDescription) ||
            outcome ||
            reason) && <dl className="details">{rowsAfterReceipt}</dl>}
        </>
      )}
    </>
  );
}
