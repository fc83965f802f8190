import type { Lang } from './i18n';

/**
 * Money and times as a Venezuelan finance team reads them: bolívares with the language's separators
 * (`Bs. 1.719,83` in Spanish, `Bs. 1,719.83` in English) and every time in Caracas time, labelled
 * (the switch stores UTC; a payment is booked on the Venezuelan day).
 */
export const TIME_ZONE = 'America/Caracas';
/** The label every shown time carries (Venezuela has no daylight saving time: always UTC−4). */
export const TIME_ZONE_LABEL = 'VET';

const LOCALES: Record<Lang, string> = { es: 'es-VE', en: 'en-US' };

const amountFormats = new Map<Lang, Intl.NumberFormat>();
const timeFormats = new Map<Lang, Intl.DateTimeFormat>();
const dayFormats = new Map<Lang, Intl.DateTimeFormat>();

function amountFormat(lang: Lang): Intl.NumberFormat {
  let format = amountFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    amountFormats.set(lang, format);
  }
  return format;
}

/** `1719.83` → `1.719,83` (es) / `1,719.83` (en): the figure alone, for tables and spreadsheets. */
export function amount(lang: Lang, value: number): string {
  return amountFormat(lang).format(value);
}

/** `1719.83` → `Bs. 1.719,83` (es) / `Bs. 1,719.83` (en). Only VES moves through the switch. */
export function money(lang: Lang, value: number, currency = 'VES'): string {
  const figure = amount(lang, Math.abs(value));
  const sign = value < 0 ? '−' : '';
  return currency === 'VES' ? `${sign}Bs. ${figure}` : `${sign}${figure} ${currency}`;
}

/** A Caracas-time formatter per language, made once (`Intl` formatters are costly to build). */
function caracasFormat(cache: Map<Lang, Intl.DateTimeFormat>, lang: Lang, parts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let format = cache.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang === 'es' ? 'es-VE' : 'en-GB', { timeZone: TIME_ZONE, ...parts });
    cache.set(lang, format);
  }
  return format;
}

/** An ISO instant as `27/11/2026 07:15:00` in Caracas time (day first in both languages, 24 hours). */
export function when(lang: Lang, iso: string): string {
  const format = caracasFormat(timeFormats, lang, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${format.format(at).replace(',', '')} ${TIME_ZONE_LABEL}`;
}

/** The Venezuelan calendar day of an instant, `27/11/2026`. */
export function day(lang: Lang, iso: string): string {
  const format = caracasFormat(dayFormats, lang, { year: 'numeric', month: '2-digit', day: '2-digit' });
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : format.format(at);
}

/** Text made safe inside HTML text and attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A `<time>` element: Caracas time shown, the stored UTC instant in `datetime` and on hover. */
export function whenTag(lang: Lang, iso: string): string {
  const safe = escapeHtml(iso);
  return `<time datetime="${safe}" title="${safe} (UTC)">${escapeHtml(when(lang, iso))}</time>`;
}
