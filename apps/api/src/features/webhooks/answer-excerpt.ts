/**
 * What is kept of an endpoint's answer and shown to the owner (docs/webhooks.md): its status, and at
 * most the first EXCERPT_MAX characters of its words, as plain text. Never the whole body: an
 * endpoint that is (or leads to) some other service would otherwise turn the deliveries list into a
 * way to read that service's answers. Only text-ish answers are excerpted (text/*, JSON and XML,
 * including the +json and +xml types); markup, control and formatting characters are removed.
 */

/** The most characters of an answer kept and shown. */
export const EXCERPT_MAX = 200;

/** Whether an answer of this Content-Type is words a person may read. */
export function isTextish(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type === 'application/xml' ||
    type.endsWith('+json') ||
    type.endsWith('+xml')
  );
}

/**
 * `text` as at most EXCERPT_MAX characters of plain text: markup (comments, scripts, styles, tags,
 * and a tag cut off at the end) removed, control and formatting characters (bidi overrides
 * included) made spaces, spaces collapsed. Null when nothing is left.
 */
export function plainExcerpt(text: string | null): string | null {
  if (text === null) return null;
  const plain = text
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    .replace(/<[^>]*(?:>|$)/g, ' ')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain === '') return null;
  const characters = Array.from(plain);
  return characters.length <= EXCERPT_MAX
    ? plain
    : `${characters.slice(0, EXCERPT_MAX - 1).join('')}…`;
}

/** What is kept of an answer: its excerpt if it is text-ish, nothing otherwise. */
export function answerExcerpt(body: string, contentType: string | undefined): string | null {
  return isTextish(contentType) ? plainExcerpt(body) : null;
}
