/**
 * The simulated money (docs/daraja-protocol.md §M12): each business shortcode's accounts, each
 * customer's wallet, and the book of transactions that moved money between them. One ledger serves
 * every Daraja API (operations/operation.ts gives it to each): STK push and C2B pay into it, B2C
 * and B2B pay out of it, a reversal moves a payment back, account balance and transaction status
 * read it.
 *
 * Moving money is one call (`move`) that either moves it whole or refuses with the reason and the
 * result code Daraja gives for it; nothing is half done. A shortcode or a wallet is known from its
 * first use, with the defaults of accounts.ts. Amounts are cents inside (amounts.ts).
 */
import { EventEmitter } from 'node:events';
import { SimClock } from '../clock.ts';
import type { SimulatorConfig } from '../config.ts';
import { eatParts } from '../ids.ts';
import { AccountBook, type ShortcodeChange, type WalletChange } from './account-book.ts';
import { MSISDN, SHORTCODE, type ShortcodeKind } from './accounts.ts';
import { darajaAmount } from './amounts.ts';
import {
  refusal,
  type LedgerState,
  type Refusal,
  type MoveRequest,
  type MoveResult,
  type ShortcodeBook,
  type Side,
  type Transaction,
  type TransactionStatus,
  type Wallet,
} from './ledger.schema.ts';
import { refuseCredit, refuseDebit } from './rules.ts';
import { TransactionBook } from './transactions.ts';

export type { ShortcodeChange, WalletChange };

export type LedgerEvent =
  { type: 'transaction'; transaction: Transaction } | { type: 'account' } | { type: 'reset' };

/**
 * A shortcode's balance as account balance's Result gives it (§M6): each account
 * `<name>|KES|<available>|<available>|0.00|0.00`, in Daraja's order, joined by `&`. The second
 * figure repeats the first, and the last two are 0.00, as in Daraja's sample; what the four mean is
 * doubtful (§M6), and the simulator holds nothing uncleared or reserved.
 */
export function balanceText(book: Pick<ShortcodeBook, 'accounts'>): string {
  return Object.entries(book.accounts)
    .map(([name, cents]) => `${name}|KES|${darajaAmount(cents)}|${darajaAmount(cents)}|0.00|0.00`)
    .join('&');
}

export class Ledger extends EventEmitter<{ change: [LedgerEvent] }> {
  readonly #clock: SimClock;
  readonly #accounts: AccountBook;
  readonly #transactions = new TransactionBook();

  constructor(config: Pick<SimulatorConfig, 'shortcode' | 'businessName'>, clock = new SimClock()) {
    super();
    this.#clock = clock;
    this.#accounts = new AccountBook(
      config,
      () => this.#today(),
      () => this.#emit({ type: 'account' }),
    );
  }

  /** A shortcode's accounts, known from now on if they were not (as `kind`: a paybill unless said). */
  shortcode(code: string, kind: ShortcodeKind = 'paybill'): Readonly<ShortcodeBook> {
    if (!SHORTCODE.test(code)) throw new RangeError(`${code} is not a shortcode`);
    return this.#accounts.shortcode(code, kind);
  }

  /** A customer's wallet, known from now on if it was not. */
  wallet(msisdn: string): Readonly<Wallet> {
    if (!MSISDN.test(msisdn)) throw new RangeError(`${msisdn} is not a customer's number`);
    return this.#accounts.wallet(msisdn);
  }

  /** The name the ledger has for one side of a movement, without making it known (else null). */
  nameOf(side: Side): string | null {
    const found =
      'msisdn' in side
        ? this.#accounts.wallets.get(side.msisdn)
        : this.#accounts.shortcodes.get(side.shortcode);
    return found?.name ?? null;
  }

  shortcodes(): Readonly<ShortcodeBook>[] {
    return [...this.#accounts.shortcodes.values()];
  }

  wallets(): Readonly<Wallet>[] {
    return [...this.#accounts.wallets.values()];
  }

  /** The newest transactions first. */
  transactions(limit?: number): Readonly<Transaction>[] {
    return this.#transactions.all().reverse().slice(0, limit);
  }

  byReceipt(receipt: string): Readonly<Transaction> | undefined {
    return this.#transactions.get(receipt);
  }

  byOriginatorConversationId(id: string): Readonly<Transaction> | undefined {
    return this.#transactions.byOriginatorConversationId(id);
  }

  /** A shortcode's balance as account balance's Result gives it (`balanceText`). */
  balanceString(code: string): string {
    return balanceText(this.shortcode(code));
  }

  /** Moves the amount whole, and records it as Completed; or refuses, and changes nothing. */
  move(request: MoveRequest): MoveResult {
    const moved = this.#move(request);
    if (moved.ok) this.#emit({ type: 'transaction', transaction: moved.transaction });
    return moved;
  }

  /**
   * Why `move` would refuse this movement now, or undefined if it would make it; nothing changes.
   * C2B asks before the merchant's validation, which a wallet that cannot pay never reaches.
   */
  check(request: MoveRequest): Refusal | undefined {
    const parties = this.#parties(request, this.#today());
    return 'reason' in parties ? parties : undefined;
  }

  /** Records a transaction that moved no money: declined, cancelled or expired. */
  record(request: MoveRequest, status: Exclude<TransactionStatus, 'Completed'>): Transaction {
    const transaction = this.#book(request, status);
    this.#emit({ type: 'transaction', transaction });
    return transaction;
  }

  /**
   * Moves a completed transaction's amount back, from the side it credited to the side it debited
   * (its charges are not refunded), and links the two. Refused for an unknown receipt, a
   * transaction already reversed, one that moved no money, or a reversal.
   */
  reverse(
    receipt: string,
    request: Pick<MoveRequest, 'receipt' | 'conversationId' | 'originatorConversationId'> = {},
  ): MoveResult {
    const original = this.#transactions.get(receipt);
    if (!original) {
      return {
        ok: false,
        ...refusal('unknown-transaction', `No transaction has the receipt ${receipt}.`),
      };
    }
    if (original.reversedBy !== null) {
      const message = `${receipt} has already been reversed, by ${original.reversedBy}.`;
      return { ok: false, ...refusal('already-reversed', message) };
    }
    if (original.status !== 'Completed' || original.kind === 'reversal') {
      const message = `${receipt} cannot be reversed: it is a ${original.status} ${original.kind}.`;
      return { ok: false, ...refusal('not-reversible', message) };
    }
    const { amount, credit: from, debit: to } = original;
    const moved = this.#move({ ...request, kind: 'reversal', amount, from, to });
    if (!moved.ok) return moved;
    moved.transaction.reverses = original.receipt;
    original.reversedBy = moved.transaction.receipt;
    this.#emit({ type: 'transaction', transaction: moved.transaction });
    return moved;
  }

  /** Sets a shortcode's kind, name or balances; a balance for an account its kind lacks is refused. */
  setShortcode(code: string, change: ShortcodeChange): Readonly<ShortcodeBook> | { error: string } {
    return this.#accounts.setShortcode(code, change);
  }

  setWallet(msisdn: string, change: WalletChange): Readonly<Wallet> {
    return this.#accounts.setWallet(msisdn, change);
  }

  /** What SIM_STATE keeps (copies: the file is written later, and must hold this moment's). */
  snapshot(): LedgerState {
    return structuredClone({
      shortcodes: this.shortcodes(),
      wallets: this.wallets(),
      transactions: this.#transactions.all(),
    });
  }

  restore(state: LedgerState): void {
    this.#accounts.restore(state.shortcodes, state.wallets);
    this.#transactions.clear();
    for (const transaction of state.transactions) this.#transactions.add(transaction);
  }

  /** Forgets every account, wallet and transaction; the simulator's own shortcode is known again. */
  reset(): void {
    this.#accounts.clear();
    this.#transactions.clear();
    this.#emit({ type: 'reset' });
  }

  #move(request: MoveRequest): MoveResult {
    const { amount, charges = 0 } = request;
    if (
      !Number.isSafeInteger(amount) ||
      amount <= 0 ||
      !Number.isSafeInteger(charges) ||
      charges < 0
    ) {
      throw new RangeError(`amounts are whole cents above 0: ${amount}, charges ${charges}`);
    }
    const day = this.#today();
    const parties = this.#parties(request, day);
    if ('reason' in parties) return { ok: false, ...parties };
    parties.from.add(-amount, -charges, day);
    parties.to.add(amount, 0, day);
    return { ok: true, transaction: this.#book(request, 'Completed') };
  }

  /** Both sides of a movement, found, or why it cannot be made now. */
  #parties({ amount, charges = 0, ...request }: MoveRequest, day: string) {
    const from = this.#accounts.party(request.from);
    if ('reason' in from) return from;
    const to = this.#accounts.party(request.to);
    if ('reason' in to) return to;
    return refuseDebit(from, amount, charges, day) ?? refuseCredit(to, amount, day) ?? { from, to };
  }

  #book(request: MoveRequest, status: TransactionStatus): Transaction {
    const now = this.#clock.now();
    const transaction: Transaction = {
      receipt: request.receipt ?? this.#transactions.newReceipt(now),
      kind: request.kind,
      status,
      amount: request.amount,
      charges: request.charges ?? 0,
      debit: { ...request.from },
      credit: { ...request.to },
      conversationId: request.conversationId ?? null,
      originatorConversationId: request.originatorConversationId ?? null,
      reference: request.reference ?? null,
      at: now.toISOString(),
      reverses: null,
      reversedBy: null,
    };
    this.#transactions.add(transaction);
    return transaction;
  }

  /** Today's date in Nairobi, where M-PESA's daily limits start and end. */
  #today(): string {
    const { year, month, day } = eatParts(this.#clock.now());
    return `${year}-${month}-${day}`;
  }

  #emit(event: LedgerEvent): void {
    this.emit('change', event);
  }
}
