/// <reference lib="dom" />
/**
 * What the browser tests check on a page beyond its texts: axe's rules, the contrast of each focus
 * ring against what it is drawn on, larger text, and cells that wrap.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { watchNetwork } from './browser.ts';

const axeSource = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

let axeServed: Promise<string> | undefined;
/**
 * axe's address, served by this test process on 127.0.0.1 and cached by the browser: a page loads
 * it from its context's cache and compiled code, where sending its 550 kB with each check took
 * about 90 ms more.
 */
function axeUrl(): Promise<string> {
  axeServed ??= new Promise((resolve) => {
    const server = http.createServer((_request, response) => {
      response.writeHead(200, {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'public, max-age=3600, immutable',
        'Access-Control-Allow-Origin': '*',
      });
      response.end(axeSource);
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/axe.min.js`);
    });
  });
  return axeServed;
}

export const PHONE = { width: 360, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * axe's violations on the page, one line each. The page must come from a context made with
 * `bypassCSP: true`: axe is injected as a script, which the app's Content-Security-Policy refuses.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Offline (a test of the network's loss), a page not yet holding axe takes it as text instead.
  await page
    .addScriptTag({ url: await axeUrl() })
    .catch(() => page.addScriptTag({ content: axeSource }));
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations as Violation[];
  });
  return found.map(
    (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

/** A context of the given size, in Kenyan English, that lets axe in. */
export async function newContext(
  browser: Browser,
  viewport: { width: number; height: number },
  /** The browser's language (navigator.languages): `sw-KE` opens the app in Kiswahili. */
  locale = 'en-KE',
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, locale, bypassCSP: true });
  watchNetwork(context);
  return context;
}

/**
 * Sets the browser's default text size, as a phone's "font size" setting does (200 % is 32 px):
 * everything sized in rem or em grows, and media queries in em see a narrower screen.
 */
export async function setTextSize(page: Page, percent: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.enable');
  await cdp.send('Page.setFontSizes', {
    fontSizes: { standard: (16 * percent) / 100, fixed: (13 * percent) / 100 },
  });
}

/**
 * Elements that stick out of the viewport on the right, other than those clipped away on purpose
 * (the visually hidden text for screen readers, a narrow table's header row); empty when the page
 * never scrolls sideways.
 */
export async function sticksOut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const clipped = (element: Element) =>
      element.closest('.visually-hidden, .transaction-table thead, .owner-table thead') !== null;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth) {
      out.push(`the page is ${document.documentElement.scrollWidth}px wide`);
    }
    for (const element of document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > window.innerWidth + 0.5 && !clipped(element)) {
        out.push(`${element.tagName.toLowerCase()}.${element.className} ends at ${box.right}px`);
      }
    }
    return out;
  });
}

export interface FocusRing {
  /** What has focus, for the failure message. */
  element: string;
  /** The ring's width in px (0 when there is none). */
  width: number;
  /** The lowest contrast between the ring and what it is drawn on, around the element. */
  contrast: number;
}

/**
 * The focus ring of the element with focus: its width, and its contrast against the colours just
 * outside it on each side, found with elementsFromPoint (what is painted there, not the DOM
 * parent: the skip link is drawn over the header) and blended where they are translucent.
 */
export async function focusRing(page: Page): Promise<FocusRing | null> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return null;
    type Rgba = [number, number, number, number];
    const parse = (color: string): Rgba => {
      const parts = color.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const contrast = (a: Rgba, b: Rgba) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (light + 0.05) / (dark + 0.05);
    };
    /** The colour painted at a point, ignoring the focused element and what is inside it. */
    const paintedAt = (x: number, y: number): Rgba => {
      const layers: Rgba[] = [];
      for (const element of document.elementsFromPoint(x, y)) {
        if (focused.contains(element)) continue;
        const color = parse(getComputedStyle(element).backgroundColor);
        if (color[3] === 0) continue;
        layers.push(color);
        if (color[3] === 1) break;
      }
      let result: Rgba = [255, 255, 255, 1];
      for (const [r, g, b, a] of layers.reverse()) {
        result = [
          r * a + result[0] * (1 - a),
          g * a + result[1] * (1 - a),
          b * a + result[2] * (1 - a),
          1,
        ];
      }
      return result;
    };
    const style = getComputedStyle(focused);
    const width = style.outlineStyle === 'none' ? 0 : Number.parseFloat(style.outlineWidth);
    const ring = parse(style.outlineColor);
    const box = focused.getBoundingClientRect();
    // Just outside the ring, on each side, where the ring meets what it is drawn on.
    const away = Number.parseFloat(style.outlineOffset) + width + 1;
    const middleX = box.left + box.width / 2;
    const middleY = box.top + box.height / 2;
    const points = [
      [box.left - away, middleY],
      [box.right + away, middleY],
      [middleX, box.top - away],
      [middleX, box.bottom + away],
    ].filter(([x, y]) => x! >= 0 && y! >= 0 && x! < window.innerWidth && y! < window.innerHeight);
    const lowest = Math.min(...points.map(([x, y]) => contrast(ring, paintedAt(x!, y!))));
    const name = `${focused.tagName.toLowerCase()}${focused.id ? `#${focused.id}` : ''} "${(focused.textContent ?? '').trim().slice(0, 30)}"`;
    return { element: name, width, contrast: Math.round(lowest * 100) / 100 };
  });
}

/**
 * Tabs through the whole page once, from the top, and gives each focused element's ring.
 * Stops when focus comes back to the first element (or after `limit` steps).
 */
export async function focusRingsByTab(page: Page, limit = 80): Promise<FocusRing[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const rings: FocusRing[] = [];
  let first: string | undefined;
  for (let step = 0; step < limit; step++) {
    await page.keyboard.press('Tab');
    const ring = await focusRing(page);
    if (!ring) continue;
    if (ring.element === first) break;
    first ??= ring.element;
    rings.push(ring);
  }
  return rings;
}

/** The cells of the page's history table whose text runs over more than one line. */
export async function wrappedCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wrapped: string[] = [];
    for (const cell of document.querySelectorAll('.transaction-table th, .transaction-table td')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const tops = [...range.getClientRects()].map((rect) => Math.round(rect.top));
        if (new Set(tops).size > 1) wrapped.push(cell.textContent ?? '');
      }
    }
    return wrapped;
  });
}

/**
 * Words split across two lines inside the elements `selector` finds (a header "Pass/wor/d", a
 * button "Ro/le"), and text that runs out of its element; each as "<element>: <word>". Elements
 * clipped away on purpose (a narrow table's visually hidden header row) are not looked at.
 */
export async function wordsSplit(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const box = element.getBoundingClientRect();
      const hidden = element.closest('.visually-hidden, thead');
      if (box.width <= 1 || (hidden && hidden.getBoundingClientRect().width <= 1)) continue;
      const name = `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
      if (element.scrollWidth > element.clientWidth + 1) {
        found.push(
          `${name}: its text is wider than it (${element.scrollWidth} > ${element.clientWidth}px)`,
        );
      }
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const word of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) found.push(`${name}: “${word[0]}” is split over ${lines.size} lines`);
        }
      }
    }
    return found;
  }, selector);
}
