/** The shell's words: the header, the footer, the simulator notice, a screen that did not load. */
export const en = {
  appTitle: 'M-PESA Payment Integration',
  skipLink: 'Skip to content',
  repository: 'View GitHub Repository',
  mainNavigation: 'Main',
  makePayment: 'Make Payment',
  transactions: 'Transactions',
  footer: 'M-PESA Integration Demo',
  /** In the footer where the history is for the shop's people only. */
  staffSignIn: 'Shop staff: sign in',
  /** The name of the switch's group, which a screen reader says before the other language. */
  language: 'Language',
  simulatorMode: 'Simulator mode',
  simulatorBefore: 'Payments here are simulated: no real money moves.',
  simulatorLink: 'Open the Daraja simulator',
  simulatorAfter: 'to answer prompts on a virtual phone.',
  screenLoadFailed: 'This page could not be loaded. Check your connection and try again.',
  tryAgain: 'Try again',
  /** When Kiswahili was chosen but its words could not be fetched. */
  languageFailed: 'Kiswahili could not be loaded. Check your connection and try again.',
};

export type ShellWords = typeof en;
