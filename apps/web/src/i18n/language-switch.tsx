import { useState } from 'react';
import { LANGUAGES, type Language } from './language';
import { shellWords } from './shell-words';
import { chooseLanguage, useLanguage, useWords } from './words';

/** Each language named in its own words, so that whoever reads it finds their own. */
const NAMES: Record<Language, string> = { en: 'English', sw: 'Kiswahili' };

/**
 * The header's language switch: two buttons, the current one pressed. The other language's words
 * are fetched when it is chosen; the screens change once they have all come.
 */
export function LanguageSwitch() {
  const language = useLanguage();
  const words = useWords(shellWords);
  const [failed, setFailed] = useState(false);

  async function choose(next: Language) {
    setFailed(false);
    await chooseLanguage(next);
    // The words that could not be fetched stay in English; say so.
    if (next === 'sw' && !shellWords.sw) setFailed(true);
  }

  return (
    <div className="language-switch" role="group" aria-label={words.language}>
      {LANGUAGES.map((each) => (
        <button
          key={each}
          type="button"
          lang={each}
          aria-pressed={each === language}
          onClick={() => void choose(each)}
        >
          {NAMES[each]}
        </button>
      ))}
      {failed && (
        <p className="field-error" role="alert">
          {words.languageFailed}
        </p>
      )}
    </div>
  );
}
