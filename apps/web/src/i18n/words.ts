import { useSyncExternalStore } from 'react';
import { LANGUAGE_KEY, type Language } from './language';

/*
 * The screens' words. Each part of the app keeps them in three files: `x-words.en.ts`, the English
 * and so the shape; `x-words.sw.ts`, the Kiswahili, typed by that shape, so that a missing
 * Kiswahili text is a type error; and `x-words.ts`, the part's book, which the code uses. The
 * English comes with the code that uses it; the Kiswahili is a chunk of its own, downloaded only
 * when Kiswahili is chosen, so the first screen's download carries one language
 * (docs/performance.md, "The web app").
 */

/** One part's words: the English, and the Kiswahili once it has come. */
export interface Book<T> {
  en: T;
  sw?: T;
  loadSw: () => Promise<T>;
}

const books: Array<Book<unknown>> = [];
let language: Language = 'en';
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

/**
 * Registers a part's words; its Kiswahili is fetched with the first screen that needs it.
 * `loadSw` is `() => import('./x-words.sw').then((m) => m.sw)`: an import whose names are known
 * lets the bundler keep what the first screen shares with it in the first screen's own chunk.
 */
export function book<T>(en: T, loadSw: () => Promise<T>): Book<T> {
  const entry: Book<T> = { en, loadSw };
  books.push(entry as Book<unknown>);
  // A part whose code arrives after Kiswahili was chosen (a screen opened later) fetches its own.
  if (language === 'sw') void loadBook(entry);
  return entry;
}

const loading = new Map<Book<unknown>, Promise<boolean>>();

/** Fetches a part's Kiswahili once; false when it could not be fetched (asked again next time). */
function loadBook(entry: Book<unknown>): Promise<boolean> {
  if (entry.sw) return Promise.resolve(true);
  let pending = loading.get(entry);
  if (!pending) {
    pending = entry.loadSw().then(
      (sw) => {
        entry.sw = sw;
        changed();
        return true;
      },
      () => false,
    );
    void pending.finally(() => loading.delete(entry));
    loading.set(entry, pending);
  }
  return pending;
}

const loadAll = () => Promise.all(books.map(loadBook)).then((loaded) => loaded.every(Boolean));

/**
 * Resolves once every part known so far has its words in the current language: true, or false
 * when some Kiswahili could not be fetched (the network dropped) and those parts are in English.
 */
export function wordsReady(): Promise<boolean> {
  return language === 'en' ? Promise.resolve(true) : loadAll();
}

export function currentLanguage(): Language {
  return language;
}

/** Sets the language at once (the page's start); the Kiswahili comes with `wordsReady`. */
export function setLanguage(next: Language): void {
  language = next;
  document.documentElement.lang = next;
  changed();
}

/** Keeps the choice in this browser, for its next visit. */
export function rememberLanguage(next: Language): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, next);
  } catch {
    // Storage refused (a private window, a full disk): the choice holds until the page closes.
  }
}

/** Whether the last attempt at Kiswahili could not fetch its words (the switch says so). */
let failed = false;

export function languageFailed(): boolean {
  return failed;
}

/**
 * Kiswahili's words could not be fetched: the page stays in (or goes back to) English, which it
 * has whole, rather than half in each; the switch says so and offers Kiswahili again.
 */
export function fallBackToEnglish(): void {
  failed = true;
  setLanguage('en');
}

/**
 * The header's switch: fetches the language's words, then shows every screen in it (so that no
 * screen shows two languages while they come), and remembers the choice in this browser. False
 * when the words could not be fetched: nothing changes then.
 */
export async function chooseLanguage(next: Language): Promise<boolean> {
  failed = false;
  if (next === 'sw' && !(await loadAll())) {
    failed = true;
    changed();
    return false;
  }
  rememberLanguage(next);
  setLanguage(next);
  return true;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The language the screens are in; re-renders when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, currentLanguage);
}

/** A part's words in the current language (English while its Kiswahili has not come). */
export function useWords<T>(entry: Book<T>): T {
  const current = useLanguage();
  // Re-renders when a part's Kiswahili arrives, too.
  useSyncExternalStore(subscribe, () => entry.sw);
  return current === 'sw' ? (entry.sw ?? entry.en) : entry.en;
}
