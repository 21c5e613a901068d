/**
 * An operator's name: kept as typed once normalised (Unicode NFKC, trimmed), compared without case,
 * so that "Amina", " amina " and "ＡＭＩＮＡ" are one operator.
 */
import { MAX_LENGTH } from '../lib/stored-lengths.ts';

export function normaliseName(name: string): string {
  return name.normalize('NFKC').trim();
}

/** How two names are compared: the one unique key of the `operators` table. */
export function nameKey(name: string): string {
  return normaliseName(name).toLowerCase().normalize('NFKC');
}

/** Why a new operator's name is refused, or undefined when it can be used. */
export function nameProblem(name: string): string | undefined {
  const normal = normaliseName(name);
  if (normal === '' || !isStorableName(name)) {
    return `The name must be 1 to ${MAX_LENGTH.operatorName} characters long.`;
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
