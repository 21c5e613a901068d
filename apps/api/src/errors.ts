/**
 * Errors: the one error type (errors/app-error.ts), the factories of the refusals several features
 * make (errors/refusals.ts, errors/check-refusals.ts), Fastify's and Node's errors in our words
 * (errors/client-mistakes.ts), and the one mapping that answers them all in our shape
 * (errors/answer.ts). Import them from here; a feature's own refusals live beside it
 * (features/<name>/*-refusals.ts). Every code is in ErrorCode (packages/shared/src/error-codes.ts).
 */
export * from './errors/app-error.ts';
export * from './errors/refusals.ts';
export * from './errors/check-refusals.ts';
export * from './errors/client-mistakes.ts';
export * from './errors/answer.ts';
