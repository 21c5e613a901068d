/**
 * What a paid prompt does to the simulated money (docs/daraja-protocol.md §M12): the amount leaves
 * the payer's wallet for the business. A PayBill push pays the BusinessShortCode's utility
 * account; a Buy Goods push pays PartyB, the till, into its merchant account (or, when PartyB is
 * known as a paybill, such as the simulator's own shortcode, into its utility account).
 *
 * A wallet that cannot pay ends the prompt as M-PESA does: 1, "The balance is insufficient for the
 * transaction." (4 past the payer's daily limit), with no receipt, and nothing moves.
 */
import { collectionAccount } from '../../money/accounts.ts';
import type { Ledger } from '../../money/ledger.ts';
import type { Prompt } from './prompt.ts';

/** A paid prompt's result code (0, or why the wallet could not pay) and its receipt, if paid. */
export interface Payment {
  resultCode: string;
  receipt: string | null;
}

export function payFromWallet(ledger: Ledger, prompt: Prompt): Payment {
  const till = prompt.transactionType === 'CustomerBuyGoodsOnline';
  const payee = ledger.shortcode(
    till ? prompt.partyB : prompt.businessShortCode,
    till ? 'till' : 'paybill',
  );
  const moved = ledger.move({
    kind: 'stk',
    amount: Math.round(prompt.amount * 100),
    from: { msisdn: prompt.phoneNumber },
    to: { shortcode: payee.shortcode, account: collectionAccount(payee.kind) },
    reference: prompt.accountReference,
  });
  return moved.ok
    ? { resultCode: '0', receipt: moved.transaction.receipt }
    : { resultCode: moved.resultCode, receipt: null };
}
