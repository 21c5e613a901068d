/**
 * Whether the screen is wide enough for what a phone folds away or moves down (the CSS's 48em).
 * Without matchMedia (tests in jsdom): wide.
 */
export const wideScreen = () => window.matchMedia?.('(min-width: 48em)').matches ?? true;
