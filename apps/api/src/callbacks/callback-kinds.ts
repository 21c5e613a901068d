/**
 * The Daraja APIs whose results come back as callbacks: each has its own route (callback-paths.ts)
 * and its rows in the `callbacks` table say which it was (`callbacks.kind`). A string enum, stored
 * as it is written here (at most 16 characters, the column's length).
 */
export const CALLBACK_KINDS = ['stk-push'] as const;

export type CallbackKind = (typeof CALLBACK_KINDS)[number];
