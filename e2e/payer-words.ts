/// <reference lib="dom" />
/**
 * What a payer in Kiswahili meets on a page: English words of ours (M-PESA's own English, marked
 * `lang="en"`, is not ours), and the links it offers.
 */
import type { Page } from 'playwright-core';

/**
 * English words that no Kiswahili sentence of ours contains: the words our English screens are
 * made of. Names stay as they are in either language (M-PESA, KES, PIN, GitHub, Daraja, Till).
 */
const ENGLISH = new Set(
  `a an the and or of to for from in on at by with your you we our is are was were be been has
  have had not no yes this that these what why when where which who how it its please try again
  pay paid payment payments phone number amount reference description details transaction
  transactions back make another success failed pending cancelled timeout receipt response
  date created status view sign staff shop loading complete means money simulated simulator open
  virtual prompt prompts page found server connection offline retry copy copied language
  repository format optional enter there minute before expires sent check wait seconds`.split(
    /\s+/,
  ),
);

/**
 * Each English word of ours the payer can see or hear: text shown outside `lang="en"`, and the
 * placeholders and accessible labels of what they can reach.
 */
export async function englishWordsShown(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const ours = (element: Element) => element.closest('[lang]')?.getAttribute('lang') !== 'en';
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !ours(parent) || !parent.checkVisibility()) continue;
      if (parent.closest('script, style, details:not([open]) > :not(summary)')) continue;
      found.push(node.textContent ?? '');
    }
    for (const element of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (!ours(element)) continue;
      for (const name of ['placeholder', 'aria-label', 'title']) {
        found.push(element.getAttribute(name) ?? '');
      }
    }
    return found;
  });
  const words = texts.flatMap((text) => text.toLowerCase().match(/[a-z]+(?:['’][a-z]+)?/g) ?? []);
  return [...new Set(words.filter((word) => ENGLISH.has(word)))];
}

/** The paths of this origin that the page links to (another origin's links are left out). */
export async function pathsLinked(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('a[href]')]
      .map((link) => new URL((link as HTMLAnchorElement).href))
      .filter((url) => url.origin === location.origin)
      .map((url) => url.pathname),
  );
}
