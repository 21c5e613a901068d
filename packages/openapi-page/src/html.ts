/** Reading an untyped document, and writing its text as HTML. */

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** `code` spans in text that is already escaped. */
export function inline(escaped: string): string {
  return escaped.replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** A description: paragraphs split by blank lines, lines starting "- " as a list, `code` spans. */
export function prose(value: unknown, className?: string): string {
  const body = text(value);
  if (!body) return '';
  const attribute = className ? ` class="${className}"` : '';
  return body
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n').map((line) => line.trim());
      if (lines.every((line) => line.startsWith('- '))) {
        const items = lines.map((line) => `<li>${inline(escapeHtml(line.slice(2)))}</li>`);
        return `<ul${attribute}>${items.join('')}</ul>`;
      }
      return `<p${attribute}>${inline(escapeHtml(lines.join(' ')))}</p>`;
    })
    .join('\n');
}

/** An example as written: JSON indented, text as it is. */
export function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
