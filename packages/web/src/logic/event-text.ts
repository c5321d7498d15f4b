/** Event-log text as people read it: ISO times inside it become dates in the reader's locale. */

export type EventTextPart = { kind: 'text'; text: string } | { kind: 'time'; iso: string };

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})/g;

/** Splits the text at every ISO 8601 time with a zone (`2026-12-01T10:00:00.000Z`); invalid ones stay text. */
export function eventTextParts(text: string): EventTextPart[] {
  const parts: EventTextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(ISO_TIME)) {
    if (Number.isNaN(Date.parse(match[0]))) continue;
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    parts.push({ kind: 'time', iso: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** Whether the log's date range is refused at the field: From after To (both `YYYY-MM-DD`). */
export function dateRangeInverted(from: string | undefined, to: string | undefined): boolean {
  return Boolean(from && to && from > to);
}
