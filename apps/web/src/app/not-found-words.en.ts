/** "Page not found" (docs/product.md §2, "Other routes": these English texts word for word). */
export const en = {
  title: 'Page not found',
  text: 'There is nothing at this address.',
};

export type NotFoundWords = typeof en;
