/** Every route string, in one place. */
export const paths = {
  home: '/',
  transactions: '/transactions',
  signIn: '/sign-in',
  transaction: (id: string) => `/transactions/${encodeURIComponent(id)}`,
} as const;
