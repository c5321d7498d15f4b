/** The log's pages (docs/product.md §9): 20 rows a page, 1000 rows assumed in all. */
export const LOG_PAGE_SIZE = 20;
export const LOG_TOTAL_ROWS = 1000;

export function pageCount(totalRows = LOG_TOTAL_ROWS, pageSize = LOG_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(totalRows / pageSize));
}

/** The page numbers the pager shows: the first, the last and a window around the current one; null marks a gap. */
export function pageWindow(current: number, count: number, radius = 2): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let page = 1; page <= count; page++) {
    const near = Math.abs(page - current) <= radius;
    if (page === 1 || page === count || near) pages.push(page);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

export function clampPage(page: number, count: number): number {
  if (!Number.isInteger(page) || page < 1) return 1;
  return Math.min(page, count);
}
