import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes, preloadAllScreens, preloadScreensFor } from './app/router';
import { loadConfig } from './features/system/api/system-api';
import { LANGUAGE_KEY, startingLanguage } from './i18n/language';
import { rememberLanguage, setLanguage, wordsReady } from './i18n/words';
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

const language = startingLanguage(
  window.location.search,
  rememberedLanguage(),
  navigator.languages,
);
setLanguage(language);
// A link that chose the language (`?lang=sw`) chose it for the next visit too.
if (new URLSearchParams(window.location.search).has('lang')) rememberLanguage(language);

// The first paint is the whole screen, so that nothing moves afterwards: the simulator notice is
// known (index.html asked for /api/config while this script was downloading, see vite.config.ts)
// and the screen the address opens has its code, and its words in the page's language. (No top-level await: it would keep the bundler
// from merging the shared code into this chunk.)
void Promise.all([
  Promise.race([
    loadConfig().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, CONFIG_WAIT_MS)),
  ]),
  // A failed download is tried again when the screen renders.
  preloadScreensFor(window.location.pathname).catch(() => undefined),
  wordsReady(),
]).then(() => render(root));
