/**
 * The languages the portal speaks (docs/glossary.md) and how one is chosen for a reader: their own
 * choice, else the first supported language of their browser's Accept-Language list (regions
 * ignored), else the portal's DEFAULT_LANGUAGE. Pure, for the server and the web alike.
 */

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language part of a tag, lower case: `de-AT` → `de`, `EN_us` → `en`. */
function primarySubtag(tag: string): string {
  return tag.trim().split(/[-_]/)[0]!.toLowerCase();
}

/**
 * The first supported language of an Accept-Language header (RFC 9110 §12.5.4): entries in order
 * of their weight (`q`, 1 when absent; equal weights keep their order), `q=0` meaning "not this",
 * regions ignored. Undefined when none is supported (`*` names none in particular).
 */
export function negotiateLanguage(acceptLanguage: string | undefined | null): Language | undefined {
  if (!acceptLanguage) return undefined;
  const ranges = acceptLanguage
    .slice(0, 1000)
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...params] = entry.split(';');
      // A weight that is no number makes the entry unreadable: it counts as "not this".
      const q = params.map((param) => /^\s*q\s*=(.*)$/i.exec(param)?.[1]?.trim()).find((value) => value !== undefined);
      const weight = q === undefined ? 1 : /^[0-9.]+$/.test(q) ? Number(q) : 0;
      return { language: primarySubtag(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((range) => range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranges.map((range) => range.language).find(isLanguage);
}

/** The language to speak to a reader: their choice, else their browser's, else the portal's default. */
export function languageFor(input: { choice?: Language | null; acceptLanguage?: string | readonly string[] | null; fallback: Language }): Language {
  if (input.choice) return input.choice;
  const accept = typeof input.acceptLanguage === 'string' ? input.acceptLanguage : input.acceptLanguage?.join(',');
  return negotiateLanguage(accept) ?? input.fallback;
}
