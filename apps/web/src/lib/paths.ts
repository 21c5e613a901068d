/** Every route string, in one place. */
export const paths = {
  home: '/',
  transactions: '/transactions',
  signIn: '/sign-in',
  payouts: '/payouts',
  links: '/links',
  pay: (code: string) => `/pay/${encodeURIComponent(code)}`,
  transaction: (id: string) => `/transactions/${encodeURIComponent(id)}`,
} as const;
