/**
 * Names that read as another operator's: an owner told "аmina signed in" (a Cyrillic а) must not be
 * misled into thinking it was Amina. A name may not mix Latin letters with Cyrillic or Greek ones,
 * and no two operators' names may have the same skeleton: the name with each Cyrillic or Greek
 * letter that looks like a Latin one replaced by it, then compared as names are (nameKey).
 */
import { nameKey } from './operator-name.ts';

/** Cyrillic and Greek letters drawn like a Latin one (lower case: the skeleton is of the key). */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ζ: 'z',
  μ: 'u',
  ω: 'w',
};

/** What `name` looks like, for comparing with other names: the same for "Amina" and "Аmina". */
export function skeleton(name: string): string {
  return [...nameKey(name)].map((char) => LOOK_ALIKES[char] ?? char).join('');
}

/** Why a name that mixes scripts is refused, or undefined. */
export function mixedScriptProblem(name: string): string | undefined {
  const latin = /\p{Script=Latin}/u.test(name);
  const other = /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(name);
  if (latin && other) {
    return 'The name mixes Latin letters with Cyrillic or Greek ones, which can look like another name: type it in one alphabet.';
  }
  return undefined;
}
