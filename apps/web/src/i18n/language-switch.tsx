import { useState } from 'react';
import type { Language } from './language';
import { shellWords } from './shell-words';
import { chooseLanguage, languageFailed, useLanguage, useWords } from './words';

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
  // While the other language's words download: the button says it is busy and takes no more presses.
  const [busy, setBusy] = useState(false);
  const other = OTHER[language];

  async function choose(next: Language) {
    setBusy(true);
    try {
      await chooseLanguage(next);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="language-switch" role="group" aria-label={words.language}>
      <button
        type="button"
        lang={other.language}
        aria-busy={busy}
        aria-disabled={busy}
        onClick={() => {
          if (!busy) void choose(other.language);
        }}
      >
        {other.name}
      </button>
      {/* English while Kiswahili could not be fetched; said in English, the page's language. */}
      {languageFailed() && language === 'en' && (
        <p className="field-error" role="alert">
          {words.languageFailed}
        </p>
      )}
    </div>
  );
}
