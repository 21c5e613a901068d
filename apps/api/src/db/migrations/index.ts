import type { Migration } from 'kysely';
import * as initial from './2026-11-22-001-initial.ts';
import * as lifecycle from './2026-11-22-002-lifecycle.ts';
import * as historyIndexes from './2026-11-23-003-history-indexes.ts';
import * as historySearch from './2026-11-23-004-history-search.ts';
import * as callbackKind from './2026-11-25-005-callback-kind.ts';
import * as eventKinds from './2026-11-25-006-event-kinds.ts';
import * as operators from './2026-11-25-007-operators.ts';
import * as phoneRetention from './2026-11-25-008-phone-retention.ts';
import * as ownerTools from './2026-11-25-009-owner-tools.ts';
import * as refundsAndC2b from './2026-11-27-010-refunds-and-c2b.ts';
import * as callbacksByPayment from './2026-11-27-011-callbacks-by-payment.ts';
import * as webhooks from './2026-11-27-012-webhooks.ts';
import * as channelStatusIndex from './2026-11-27-013-channel-status-index.ts';
import * as keyRevocation from './2026-11-28-014-key-revocation.ts';
import * as signInGuesses from './2026-11-28-015-sign-in-guesses.ts';
import * as searchAnyCase from './2026-11-29-016-search-any-case.ts';
import * as totalsFromTheIndex from './2026-11-29-017-totals-from-the-index.ts';
import * as payouts from './2026-11-29-018-payouts.ts';
import * as links from './2026-11-29-019-links.ts';

/** Every migration, by name; names sort in the order they must run. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-001-initial': initial,
  '2026-11-22-002-lifecycle': lifecycle,
  '2026-11-23-003-history-indexes': historyIndexes,
  '2026-11-23-004-history-search': historySearch,
  '2026-11-25-005-callback-kind': callbackKind,
  '2026-11-25-006-event-kinds': eventKinds,
  '2026-11-25-007-operators': operators,
  '2026-11-25-008-phone-retention': phoneRetention,
  '2026-11-25-009-owner-tools': ownerTools,
  '2026-11-27-010-refunds-and-c2b': refundsAndC2b,
  '2026-11-27-011-callbacks-by-payment': callbacksByPayment,
  '2026-11-27-012-webhooks': webhooks,
  '2026-11-27-013-channel-status-index': channelStatusIndex,
  '2026-11-28-014-key-revocation': keyRevocation,
  '2026-11-28-015-sign-in-guesses': signInGuesses,
  '2026-11-29-016-search-any-case': searchAnyCase,
  '2026-11-29-017-totals-from-the-index': totalsFromTheIndex,
  '2026-11-29-018-payouts': payouts,
  '2026-11-29-019-links': links,
};
