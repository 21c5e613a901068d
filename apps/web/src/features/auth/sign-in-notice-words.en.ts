/**
 * The notice in place of what a merchant's screen cannot show without a session: its own small
 * book, since the history's screens show it and need none of the signing-in screen's words.
 */
export const en = {
  notice: 'Sign in to see this.',
  link: 'Sign in',
};

export type SignInNoticeWords = typeof en;
