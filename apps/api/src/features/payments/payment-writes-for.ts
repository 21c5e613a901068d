/** Which form of the payment path's writes (payment-writes.ts) a database takes. */
import type { DialectName } from '../../db/create-db.ts';
import type { PaymentWrites } from './payment-writes.ts';
import { postgresWrites } from './postgres-writes.repository.ts';
import { sqliteWrites } from './sqlite-writes.repository.ts';

/** The writes for a database: chosen once, where the app's parts are put together (app-deps.ts). */
export function paymentWritesFor(dialect: DialectName): PaymentWrites {
  return dialect === 'postgres' ? postgresWrites : sqliteWrites;
}
