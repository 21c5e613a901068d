/**
 * The stored-length rules now live in `lib/stored-lengths.ts`, where `daraja/` (which imports
 * nothing from `db/`) can use them too. Kept so that the imports of other folders still resolve.
 */
export { COLUMN_LENGTHS, MAX_LENGTH, isStorableIdentifier } from '../lib/stored-lengths.ts';
