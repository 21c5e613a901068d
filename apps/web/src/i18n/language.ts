/**
 * The two languages of every screen: the specification's English, the default, and Kiswahili, the
 * language M-PESA itself speaks to most of the people who pay (its menus, prompts and messages).
 */
export type Language = 'en' | 'sw';

export const LANGUAGES: readonly Language[] = ['en', 'sw'];

/** Where the browser remembers the choice made with the header's switch (or `?lang=`). */
export const LANGUAGE_KEY = 'mpesa.language';

/** The language of ours a tag names ('sw', 'sw-KE', 'EN_gb'), if any. */
export function languageOf(tag: string | null | undefined): Language | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((language) => language === primary);
}

/**
 * The language a page opens in: the address's `?lang=` first (a link can choose), then the choice
 * this browser remembers, then the first of the browser's languages that we speak; English when
 * none of them says.
 */
export function startingLanguage(
  search: string,
  remembered: string | null,
  browserLanguages: readonly string[],
): Language {
  const asked = languageOf(new URLSearchParams(search).get('lang'));
  if (asked) return asked;
  const kept = languageOf(remembered);
  if (kept) return kept;
  for (const tag of browserLanguages) {
    const spoken = languageOf(tag);
    if (spoken) return spoken;
  }
  return 'en';
}

/** The locale `Intl` formats numbers and dates with, in each language: Kenya's. */
export const LOCALES: Record<Language, string> = { en: 'en-KE', sw: 'sw-KE' };
