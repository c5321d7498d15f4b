/** The filter boxes above the tables: a row stays when any of its shown texts contains the query. */
export function filterRows<T>(rows: readonly T[], query: string, texts: (row: T) => readonly (string | null | undefined)[]): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...rows];
  return rows.filter((row) => texts(row).some((text) => (text ?? '').toLowerCase().includes(needle)));
}
