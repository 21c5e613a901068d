/**
 * Review: a person settles a payment flagged for a look (the owner's screen, `npm run review`).
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { DbHandle } from '../../db/create-db.ts';
import type { HistoryGuards } from '../operators/index.ts';
import type { ApiFeature } from '../feature.ts';

export { REVIEW_STATUSES, ReviewError, clearFlag, listForReview } from './review.ts';
export type { ReviewStatus } from './review.ts';

interface ReviewContext {
  database: DbHandle;
  now: () => Date;
  guards: HistoryGuards | undefined;
  ownerGate: onRequestAsyncHookHandler[];
}

/**
 * An owner settles a flagged payment, where there are owners' screens (HISTORY_ACCESS=operators);
 * `npm run review` reviews in open mode.
 */
export const review: ApiFeature<unknown, ReviewContext> = {
  routes: async (api, { database, now, guards, ownerGate }) => {
    const { reviewRoutes } = await import('./review.routes.ts');
    if (guards) await api.register(reviewRoutes, { db: database.db, now, ownerGate });
  },
};
