import type { ConnectionWords } from './connection-words.en';

export const sw: ConnectionWords = {
  offline: 'Huna mtandao',
  unreachable: 'Seva haikuweza kufikiwa',
  serverProblem: 'Seva ilipata hitilafu',
  outOfDate: (why, time, seconds) =>
    `${why}, kwa hiyo huenda ukurasa huu umepitwa na wakati. Ilisasishwa mara ya mwisho: ${time}. Tunajaribu tena kila sekunde ${seconds}.`,
  notLoaded: (why, seconds) =>
    `${why}, kwa hiyo ukurasa huu bado haujaweza kufunguka. Tunajaribu tena kila sekunde ${seconds}.`,
  // Not "Jaribu tena", the words of a payment's "Try again": this only loads the page again.
  retry: 'Pakia upya',
};
