export { reviewRoutes } from './review.routes.ts';
export { REVIEW_STATUSES, ReviewError, clearFlag, listForReview } from './review.ts';
export type { ReviewStatus } from './review.ts';
