/**
 * The owner's screens and the one-time link's page (HISTORY_ACCESS=operators): apart from `paths`
 * (paths.ts) so that only their own chunks carry them: a module the first screen imports is in its
 * download whole, these strings too (app/screens.tsx).
 */
export const ownerPaths = {
  operators: '/operators',
  keys: '/keys',
  webhooks: '/webhooks',
  audit: '/audit',
  setPassword: '/set-password',
} as const;
