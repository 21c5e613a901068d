/** Every route string, in one place. */
export const paths = {
  home: '/',
  transactions: '/transactions',
  transaction: (id: string) => `/transactions/${encodeURIComponent(id)}`,
} as const;
