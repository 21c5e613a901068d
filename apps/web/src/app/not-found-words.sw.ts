import type { NotFoundWords } from './not-found-words.en';

export const sw: NotFoundWords = {
  title: 'Ukurasa haukupatikana',
  text: 'Hakuna kitu kwenye anwani hii.',
};
