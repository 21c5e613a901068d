/**
 * The ledger's book of transactions, found by receipt and by OriginatorConversationID (as
 * transaction status looks them up, docs/daraja-protocol.md §M5). It keeps the most recent ones
 * only, as the prompt book does: the oldest are forgotten first.
 */
import { mpesaReceiptNumber } from '../ids.ts';
import type { Transaction } from './ledger.schema.ts';

const MAX_TRANSACTIONS = 1000;

export class TransactionBook {
  readonly #byReceipt = new Map<string, Transaction>();
  readonly #byOriginator = new Map<string, string>();

  get(receipt: string): Transaction | undefined {
    return this.#byReceipt.get(receipt);
  }

  byOriginatorConversationId(id: string): Transaction | undefined {
    const receipt = this.#byOriginator.get(id);
    return receipt === undefined ? undefined : this.#byReceipt.get(receipt);
  }

  /** Oldest first, as they were added. */
  all(): Transaction[] {
    return [...this.#byReceipt.values()];
  }

  /** A receipt no transaction in the book has. */
  newReceipt(at: Date): string {
    let receipt = mpesaReceiptNumber(at);
    while (this.#byReceipt.has(receipt)) receipt = mpesaReceiptNumber(at);
    return receipt;
  }

  add(transaction: Transaction): void {
    this.#byReceipt.set(transaction.receipt, transaction);
    if (transaction.originatorConversationId !== null) {
      this.#byOriginator.set(transaction.originatorConversationId, transaction.receipt);
    }
    for (const [receipt, old] of this.#byReceipt) {
      if (this.#byReceipt.size <= MAX_TRANSACTIONS) break;
      this.#byReceipt.delete(receipt);
      if (
        old.originatorConversationId !== null &&
        this.#byOriginator.get(old.originatorConversationId) === receipt
      ) {
        this.#byOriginator.delete(old.originatorConversationId);
      }
    }
  }

  clear(): void {
    this.#byReceipt.clear();
    this.#byOriginator.clear();
  }
}
