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

/**
 * Characters that change how text is shown without being seen: the bidirectional embeddings and
 * overrides (U+202A–U+202E) and isolates (U+2066–U+2069), the zero-width space, joiners and
 * direction marks (U+200B–U+200F), and the byte order mark (U+FEFF). In a name or an account number
 * from outside they can make one text look like another ("INV-42" spelt backwards, a name that
 * reads as a different one), so they are removed.
 */
const INVISIBLE_MARKS = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;

/** The text without bidirectional overrides, zero-width characters or byte order marks. */
export function stripInvisibleMarks(text: string): string {
  return text.replace(INVISIBLE_MARKS, '');
}
