import { useState } from 'react';
import type { Language } from './language';
import { shellWords } from './shell-words';
import { chooseLanguage, useLanguage, useWords } from './words';

/** The other language, named in its own words so that whoever reads it finds their own. */
const OTHER: Record<Language, { language: Language; name: string }> = {
  en: { language: 'sw', name: 'Kiswahili' },
  sw: { language: 'en', name: 'English' },
};

/**
 * The header's language switch: one button naming the other language (a page in English offers
 * "Kiswahili", one in Kiswahili offers "English"), small enough to sit beside the repository link
 * at 360 px. The other language's words are fetched when it is chosen; the screens change once
 * they have all come.
 */
export function LanguageSwitch() {
  const language = useLanguage();
  const words = useWords(shellWords);
  const [failed, setFailed] = useState(false);
  const other = OTHER[language];

  async function choose(next: Language) {
    setFailed(false);
    await chooseLanguage(next);
    // The words that could not be fetched stay in English; say so.
    if (next === 'sw' && !shellWords.sw) setFailed(true);
  }

  return (
    <div className="language-switch" role="group" aria-label={words.language}>
      <button type="button" lang={other.language} onClick={() => void choose(other.language)}>
        {other.name}
      </button>
      {failed && (
        <p className="field-error" role="alert">
          {words.languageFailed}
        </p>
      )}
    </div>
  );
}
