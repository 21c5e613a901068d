import { book } from './words';
import { en } from './shell-words.en';

export type { ShellWords } from './shell-words.en';
export const shellWords = book(en, () => import('./shell-words.sw').then((m) => m.sw));
