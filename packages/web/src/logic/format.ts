/**
 * How dates, times and spans show: in the portal's language (set by i18n/language.tsx with
 * `formatIn`), else the browser's locale.
 */
let locale: string | undefined;

/** The language the formatters follow from now on (the portal's language). */
export function formatIn(language: string | undefined): void {
  locale = language;
}

/** How timestamps show in tables: local date and time, or a dash when there is none. */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A time of day, hours and minutes: `14:35`, `2:35 PM`. */
export function formatTime(date: Date): string {
  return date.toLocaleTimeString(locale ?? [], { hour: '2-digit', minute: '2-digit' });
}

/** How long ago, in the largest whole unit: `just now`, `5 minutes`, `3 hours`, `2 days` (German `gerade eben`, `5 Minuten`). */
export function formatAge(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 1000));
  const justNow = locale === 'de' ? 'gerade eben' : 'just now';
  if (!Number.isFinite(seconds) || seconds < 60) return justNow;
  const units: [number, 'day' | 'hour' | 'minute'][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    const amount = Math.floor(seconds / size);
    if (amount >= 1) return new Intl.NumberFormat(locale ?? 'en', { style: 'unit', unit, unitDisplay: 'long' }).format(amount);
  }
  return justNow;
}

/** A day in the reader's locale, without the time: `25 Nov 2026`. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(locale, { dateStyle: 'medium' });
}
