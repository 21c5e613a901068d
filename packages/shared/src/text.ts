// eslint-disable-next-line no-control-regex -- control characters are exactly what it must find
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

/**
 * Replaces each run of control characters with one space: free text from outside (a payer's
 * reference, Daraja's ResultDesc) is shown to people and stored, and no database should be asked to
 * store a NUL.
 */
export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, ' ');
}
