/**
 * Names that read as another operator's: an owner told "аmina signed in" (a Cyrillic а) must not be
 * misled into thinking it was Amina. A name's letters must all be of one script (Japanese may mix
 * Han with its kana, Korean Han with Hangul), and no two operators' names may have the same
 * skeleton: the name with each letter drawn like a Latin one (from whatever script, Latin's own
 * dotless ı and small capitals included) replaced by it, then compared as names are (nameKey).
 */
import { nameKey, normaliseName } from './operator-name.ts';

/** A table written as pairs of characters: what looks alike, then what it looks like. */
const table = (pairs: string): Record<string, string> =>
  Object.fromEntries(pairs.split(/\s+/).map((pair) => [...pair] as [string, string]));

/** Capitals whose small letter looks like something else (Greek Η is H, η is n), or has none alike. */
const CAPITALS = table(`
  АA ВB ЕE КK МM НH ОO РP СC ТT ХX УY ЅS ІI ЈJ
  ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX
  ՕO ՍU ՏS ԼL
  ᎪA ᏴB ᏟC ᎠD ᎬE ᏀG ᎻH ᎫJ ᏦK ᏞL ᎷM ᏢP ᏚS ᎢT ᏙV ᎳW ᏃZ
`);

/** Small letters (the skeleton is of the key, in lower case). */
const SMALL = table(`
  аa вb еe ёe кk мm нh оo рp сc тt уy хx іi їi јj ѕs һh ԁd ԛq ԝw ӏl
  αa βb εe ηn ιi κk νv οo ρp τt υu χx γy ζz μu ωw ϲc ϳj
  օo սu ցg հh ոn զq աw
  ıi ɑa ɡg ɩi ȷj ℓl ᴀa ʙb ᴄc ᴅd ᴇe ɢg ʜh ɪi ᴊj ᴋk ʟl ᴍm ɴn ᴏo ᴘp ʀr ꜱs ᴛt ᴜu ᴠv ᴡw ʏy ᴢz
`);

/** What `name` looks like, for comparing with other names: the same for "Amina" and "Аmina". */
export function skeleton(name: string): string {
  const capitals = [...normaliseName(name)].map((char) => CAPITALS[char] ?? char).join('');
  return [...nameKey(capitals)]
    .map((char) => SMALL[char] ?? char)
    .join('')
    .replace(/rn/g, 'm');
}

/** The scripts a name's letters may be of, one at a time (Common and Inherited are any script's). */
const SCRIPTS = `
  Latin Cyrillic Greek Armenian Georgian Hebrew Arabic Syriac Thaana Nko Devanagari Bengali
  Gurmukhi Gujarati Oriya Tamil Telugu Kannada Malayalam Sinhala Thai Lao Tibetan Myanmar
  Khmer Mongolian Ethiopic Cherokee Canadian_Aboriginal Tifinagh Vai Adlam Osage Coptic
  Glagolitic Runic Ogham Han Hiragana Katakana Bopomofo Hangul Yi Javanese Balinese Sundanese
  Tagalog Cham Bamum Ol_Chiki Lisu Deseret Shavian Tai_Le Tai_Tham Tai_Viet New_Tai_Lue
  Buginese Lepcha Limbu Mende_Kikakui
`
  .trim()
  .split(/\s+/)
  .map((script) => ({ script, pattern: new RegExp(`\\p{Script=${script}}`, 'u') }));

/** Scripts written together in one name: Japanese, Korean, Chinese with its phonetic letters. */
const TOGETHER = [
  ['Han', 'Hiragana', 'Katakana'],
  ['Han', 'Hangul'],
  ['Han', 'Bopomofo'],
];

/** The scripts of a name's letters (a letter of a script not listed counts as "another"). */
function scriptsOf(name: string): Set<string> {
  const scripts = new Set<string>();
  for (const char of name) {
    if (!/\p{L}/u.test(char) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(char)) continue;
    scripts.add(SCRIPTS.find(({ pattern }) => pattern.test(char))?.script ?? 'another');
  }
  return scripts;
}

/** Why a name that mixes scripts is refused, or undefined. */
export function mixedScriptProblem(name: string): string | undefined {
  const scripts = [...scriptsOf(name)];
  if (scripts.length <= 1) return undefined;
  if (TOGETHER.some((group) => scripts.every((script) => group.includes(script)))) return undefined;
  if (scripts.length === 2 && scripts.includes('Latin')) {
    if (scripts.includes('Cyrillic') || scripts.includes('Greek')) {
      return 'The name mixes Latin letters with Cyrillic or Greek ones, which can look like another name: type it in one alphabet.';
    }
  }
  const named = scripts.map((script) => script.replace(/_/g, ' '));
  return `The name mixes letters of different scripts (${named.join(', ')}), which can look like another name: type it in one alphabet.`;
}
