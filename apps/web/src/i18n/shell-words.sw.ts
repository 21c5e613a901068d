import type { ShellWords } from './shell-words.en';

export const sw: ShellWords = {
  appTitle: 'Malipo kwa M-PESA',
  skipLink: 'Ruka hadi maudhui',
  repository: 'Angalia msimbo kwenye GitHub',
  mainNavigation: 'Menyu kuu',
  makePayment: 'Lipa',
  transactions: 'Miamala',
  footer: 'Onyesho la Malipo kwa M-PESA',
  staffSignIn: 'Wafanyakazi wa duka: ingia',
  language: 'Lugha',
  simulatorMode: 'Hali ya majaribio',
  simulatorBefore: 'Malipo hapa ni ya majaribio: hakuna pesa halisi inayotumwa.',
  simulatorLink: 'Fungua kiigaji cha Daraja',
  simulatorAfter: 'ili kujibu maombi kwenye simu ya mfano.',
  screenLoadFailed: 'Ukurasa huu haukuweza kufunguka. Angalia mtandao wako kisha ujaribu tena.',
  // Loads the screen's code again; "Jaribu tena" is a payment's "Try again".
  tryAgain: 'Pakia upya',
  languageFailed: 'Kiswahili hakikuweza kupakuliwa. Angalia mtandao wako kisha ujaribu tena.',
};
