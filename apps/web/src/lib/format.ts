/** Display helpers shared by the screens, each in the language the screens are in. */
import { LOCALES, type Language } from '../i18n/language';

/** "pending" → "Pending" (docs/product.md §2: status badges show the first letter capitalised). */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A date and time, or "N/A" (in Kiswahili "Hakuna") when it is missing or not a date. In English
 * in the viewer's own format, as before there was a choice of language; in Kiswahili as Kenya
 * writes it.
 */
export function formatDate(value: string | null | undefined, language: Language = 'en'): string {
  const date = value ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) return language === 'sw' ? 'Hakuna' : 'N/A';
  return date.toLocaleString(language === 'sw' ? LOCALES.sw : undefined);
}

const numbers = new Map<string, Intl.NumberFormat>();

function numberFormat(language: Language, compact: boolean): Intl.NumberFormat {
  const key = `${language}:${compact}`;
  let format = numbers.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      LOCALES[language],
      // Kiswahili's short form writes millions "M1.5", which reads as nothing: it says "milioni 1.5".
      compact
        ? {
            notation: 'compact',
            compactDisplay: language === 'sw' ? 'long' : 'short',
            maximumFractionDigits: 1,
          }
        : { maximumFractionDigits: 2 },
    );
    numbers.set(key, format);
  }
  return format;
}

/** 292163 → "292,163": Kenyan grouping, as M-PESA's own messages write amounts ("150,000"). */
export function formatNumber(amount: number, language: Language = 'en'): string {
  return numberFormat(language, false).format(amount);
}

/**
 * 292163 → "292K" in English, "elfu 292" in Kiswahili: short figures for a chart's axis, the word
 * and its figure joined by a no-break space so that a narrow axis never parts them.
 */
export function formatCompact(amount: number, language: Language = 'en'): string {
  return numberFormat(language, true).format(amount).replace(/ /g, '\u00a0');
}

/**
 * Amounts are shown as the value followed by " KES" (docs/product.md §2), the value grouped by
 * thousands ("292,163 KES"). Where it is shown, CSS keeps it on one line.
 */
export function formatAmount(amount: number, language: Language = 'en'): string {
  return `${formatNumber(amount, language)} KES`;
}
