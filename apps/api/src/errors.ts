/**
 * Errors: the one error type (errors/app-error.ts), a factory for each error the API makes
 * (errors/refusals.ts), Fastify's and Node's errors in our words (errors/client-mistakes.ts), and
 * the one mapping that answers them all in our shape (errors/answer.ts). Import them from here.
 */
export * from './errors/app-error.ts';
export * from './errors/refusals.ts';
export * from './errors/owner-refusals.ts';
export * from './errors/check-refusals.ts';
export * from './errors/refund-refusals.ts';
export * from './errors/c2b-refusals.ts';
export * from './errors/client-mistakes.ts';
export * from './errors/answer.ts';
export * from './errors/webhook-refusals.ts';
