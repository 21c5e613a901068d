/** The rows `npm run db:seed` writes (seed-data.ts makes them, seed.ts writes them). */
import type { Insertable } from 'kysely';
import type { NewTransactionEventRow, NewTransactionRow, RefundTable } from '../db/schema.ts';

/** Every column the app fills when it saves a payment (leases, flags and links stay empty). */
export type SeedTransaction = Required<
  Omit<
    NewTransactionRow,
    'lease_until' | 'lease_owner' | 'flagged_reason' | 'phone_masked_at' | 'link_id'
  >
>;
export type SeedEvent = Required<NewTransactionEventRow>;
export type SeedRefund = Required<Insertable<RefundTable>>;

export interface SeededPayment {
  transaction: SeedTransaction;
  events: SeedEvent[];
  /** Its refund, for a payment refunded since (seed-money.ts). */
  refund: SeedRefund | null;
}
