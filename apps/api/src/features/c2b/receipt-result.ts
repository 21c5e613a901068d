/**
 * What a transaction status Result says about a receipt the merchant typed (docs/daraja-protocol.md
 * §M5, and what the simulator plays, §M5.1): a pure reading, tested as a table
 * (receipt-result.test.ts).
 *
 * - ResultCode 0, TransactionStatus `Completed`, and our shortcode the credit side: a till or
 *   paybill payment, recorded as its confirmation would have been.
 * - `R000002` ("The OriginalTransactionID is invalid."), or a transaction that is not a completed
 *   payment to us (cancelled, or another party's): M-PESA knows no such payment to this shop.
 * - Anything else (2001, a bad initiator; SFC_IC0003; …): the check failed, with the code.
 */
import { parameter, type DarajaResult } from '../../daraja/result-parser.ts';
import { eatTimestampToIso } from '../../daraja/time.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import type { C2bPayment } from './c2b-body.ts';
import { cleanText, payerNameOf, wholeShillingsOf } from './c2b-body.ts';

export type ReceiptResult =
  | { kind: 'found'; payment: C2bPayment }
  | { kind: 'not_found'; resultCode: string | null }
  | { kind: 'failed'; resultCode: string };

/** "2547… - NICHOLAS JOHN SONGOK" or "600100 - Shop": the party's number and its name. */
function party(value: string | null): { id: string; name: string | null } | null {
  if (value === null) return null;
  const text = cleanText(value);
  const at = text.indexOf(' - ');
  const id = (at === -1 ? text : text.slice(0, at)).trim();
  const name = at === -1 ? '' : text.slice(at + 3);
  return { id, name: payerNameOf([name]) };
}

/**
 * The credit side: CreditPartyName when M-PESA sends it (a 2024 fixture), else the second
 * DebitPartyName, which is the credit party under the same key (§M5: read the list as a multimap).
 */
function creditParty(result: DarajaResult) {
  const credit = parameter(result, 'CreditPartyName');
  if (credit !== null) return party(credit);
  const debits = result.parameters.filter((item) => item.key === 'DebitPartyName');
  return party(debits[1]?.value ?? null);
}

/** ReasonType: `Pay Bill Online`, `Business Pay Bill` → paybill; `Buy Goods Online`, … → till. */
const channelOf = (reasonType: string | null): C2bPayment['channel'] =>
  reasonType !== null && /goods/i.test(reasonType) ? 'till' : 'paybill';

export function readReceiptResult(
  result: DarajaResult,
  asked: { receipt: string; shortcode: string },
): ReceiptResult {
  const code = result.resultCode;
  if (code === 'R000002') return { kind: 'not_found', resultCode: code };
  if (code !== '0') return { kind: 'failed', resultCode: code };
  const status = parameter(result, 'TransactionStatus');
  const credit = creditParty(result);
  if (status !== 'Completed' || credit?.id !== asked.shortcode) {
    return { kind: 'not_found', resultCode: status === null ? null : status.slice(0, 32) };
  }
  const receipt = (parameter(result, 'ReceiptNo') ?? asked.receipt).toUpperCase();
  const amount = wholeShillingsOf(parameter(result, 'Amount'));
  // A Result about another receipt, or with no amount we can record, records nothing.
  if (receipt !== asked.receipt || amount === null) return { kind: 'failed', resultCode: code };
  const payer = party(parameter(result, 'DebitPartyName'));
  const initiated = parameter(result, 'InitiatedTime');
  return {
    kind: 'found',
    payment: {
      channel: channelOf(parameter(result, 'ReasonType')),
      receipt,
      amount,
      shortcode: asked.shortcode,
      // Transaction status does not say what account number the customer typed.
      reference: '',
      transactionDate: initiated === null ? null : eatTimestampToIso(initiated),
      payerName: payer?.name ?? null,
      payerMsisdn: payer?.id ? payer.id.slice(0, MAX_LENGTH.payerMsisdn) : null,
    },
  };
}
