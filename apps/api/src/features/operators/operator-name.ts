/**
 * An operator's name: kept as typed once normalised (Unicode NFKC, trimmed), compared without case,
 * so that "Amina", " amina " and "ＡＭＩＮＡ" are one operator.
 */
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';

export function normaliseName(name: string): string {
  return name.normalize('NFKC').trim();
}

/** How two names are compared: the one unique key of the `operators` table. */
export function nameKey(name: string): string {
  return normaliseName(name).toLowerCase().normalize('NFKC');
}

/**
 * Characters that show nothing: the default-ignorable ones (joiners, variation selectors, the
 * combining grapheme joiner, the Hangul fillers) and the blank letters that are not (the braille
 * blank, and the Hangul fillers again as NFKC leaves them). "Amina" followed by one reads as Amina.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0\u2800]/u;

export const INVISIBLE_NAME_MESSAGE =
  'The name must be made of visible characters, with at least one letter or digit.';

/** Why a new operator's (or key's) name is refused, or undefined when it can be used. */
export function nameProblem(name: string): string | undefined {
  const normal = normaliseName(name);
  if (normal === '' || !isStorableName(name)) {
    return `The name must be 1 to ${MAX_LENGTH.operatorName} characters long.`;
  }
  // Tested on the name as typed too: NFKC changes some fillers into others.
  if (INVISIBLE.test(name) || INVISIBLE.test(normal) || !/[\p{L}\p{N}]/u.test(normal)) {
    return INVISIBLE_NAME_MESSAGE;
  }
  if (/\p{C}/u.test(normal)) return 'The name must not contain control characters.';
  return undefined;
}

/** A name that could be stored, for a sign-in: any other cannot be an operator's. */
export function isStorableName(name: string): boolean {
  const normal = normaliseName(name);
  return (
    normal.length <= MAX_LENGTH.operatorName && nameKey(name).length <= MAX_LENGTH.operatorName
  );
}
