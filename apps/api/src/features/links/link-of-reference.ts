/**
 * The payment link a till or paybill payment was made for, by its account reference: a payer who
 * pays from the M-PESA menu or scans the link's M-PESA QR code (features/c2b/) types or carries the
 * link's reference, and the payment shows against the link.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The newest link made before `at` whose reference is `reference` (in any case, as a payer types
 * it), whether or not it still takes payments: the money moved for it either way. None: null.
 */
export async function linkOfReference(
  db: Kysely<Database>,
  reference: string,
  at: string,
): Promise<string | null> {
  const wanted = reference.trim().toLowerCase();
  if (wanted === '') return null;
  const link = await db
    .selectFrom('payment_links')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['reference']), '=', wanted))
    .where('created_at', '<=', at)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return link?.id ?? null;
}
