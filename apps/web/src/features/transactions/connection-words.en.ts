/** The notice of a screen that cannot reach the API (connection-notice.tsx), in the payer's words. */
export const en = {
  offline: 'You are offline',
  unreachable: 'The server could not be reached',
  serverProblem: 'The server had a problem',
  /** "<what went wrong>, so this page may be out of date. Last updated at <time>. Trying…" */
  outOfDate: (why: string, time: string, seconds: number) =>
    `${why}, so this page may be out of date. Last updated at ${time}. Trying again every ${seconds} seconds.`,
  notLoaded: (why: string, seconds: number) =>
    `${why}, so this page could not be loaded yet. Trying again every ${seconds} seconds.`,
  retry: 'Retry',
};

export type ConnectionWords = typeof en;
