/** Grant expiries as people write them (`7d`, `12h`, `2026-12-01`), turned into ISO 8601 times. */

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `7d`, `12h`, `30m`, `2w` from `now`, or an ISO 8601 date or time; answers the ISO time, or
 * undefined when the text is neither.
 */
export function expiryFrom(text: string, now: number): string | undefined {
  const value = text.trim();
  const relative = /^(\d{1,5})\s*([mhdw])$/i.exec(value);
  if (relative) {
    const amount = Number(relative[1]);
    return amount > 0 ? new Date(now + amount * UNITS[relative[2].toLowerCase()]).toISOString() : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}

/** Days from now, for the expiry choices of the web portal. */
export function daysFrom(now: number, days: number): string {
  return new Date(now + days * UNITS.d).toISOString();
}
