/**
 * The signing-in screens' one chunk: the sign-in form and the header's operator bar come in one
 * download, after the first screen (app/layout.tsx), and the first screen's bundle names one file
 * for both instead of two (docs/performance.md, "The web app").
 */
export { OperatorBar } from './operator-bar';
export { SignInForm } from './sign-in-form';
