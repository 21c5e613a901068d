import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes, preloadAllScreens, preloadScreensFor } from './app/router';
import { loadConfig } from './features/system/api/system-api';
import { LANGUAGE_KEY, languageOf, startingLanguage } from './i18n/language';
import { fallBackToEnglish, rememberLanguage, setLanguage, wordsReady } from './i18n/words';
import './styles.css';

/** Longest wait for /api/config before painting without it (it normally came in long before). */
const CONFIG_WAIT_MS = 2000;

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

function render(container: HTMLElement) {
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </StrictMode>,
  );
  // The other screens load once the page has, so that following a link waits for nothing.
  const preloadRest = () => void preloadAllScreens().catch(() => undefined);
  if (document.readyState === 'complete') preloadRest();
  else window.addEventListener('load', preloadRest, { once: true });
}

/** The remembered choice of language, if storage can be read (a private window may refuse). */
function rememberedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

const params = new URLSearchParams(window.location.search);
const asked = params.get('lang');
setLanguage(startingLanguage(window.location.search, rememberedLanguage(), navigator.languages));
if (asked !== null) {
  // A link that chose a language of ours (`?lang=sw`) chose it for the next visit too. The address
  // then forgets it, so that a reload keeps what the switch chooses afterwards.
  const chosen = languageOf(asked);
  if (chosen) rememberLanguage(chosen);
  params.delete('lang');
  const search = params.size > 0 ? `?${params.toString()}` : '';
  window.history.replaceState(
    window.history.state,
    '',
    `${window.location.pathname}${search}${window.location.hash}`,
  );
}

// The first paint is the whole screen, so that nothing moves afterwards: the simulator notice is
// known (index.html asked for /api/config while this script was downloading, see vite.config.ts)
// and the screen the address opens has its code, and its words in the page's language. (No
// top-level await: it would keep the bundler from merging the shared code into this chunk.)
void Promise.all([
  Promise.race([
    loadConfig().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, CONFIG_WAIT_MS)),
  ]),
  // A failed download is tried again when the screen renders.
  preloadScreensFor(window.location.pathname).catch(() => undefined),
  wordsReady(),
]).then(([, , wordsCame]) => {
  // Kiswahili whose words could not be fetched: the page opens in English, whole, and says so.
  if (!wordsCame) fallBackToEnglish();
  render(root);
});
