/** Arrow keys in the launcher's grid: which tile gets focus next, from where the tiles are drawn. */
export type TileKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

export interface TileBox {
  left: number;
  top: number;
}

/**
 * Left and Right step through the tiles in reading order; Up and Down go to the nearest tile (by
 * its left edge) of the row above or below, across the category sections; Home and End to the
 * first and last. At an edge the focus stays.
 */
export function tileToFocus(boxes: readonly TileBox[], from: number, key: TileKey): number {
  const last = boxes.length - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  if (key === 'ArrowLeft') return Math.max(0, from - 1);
  if (key === 'ArrowRight') return Math.min(last, from + 1);
  const here = boxes[from];
  const down = key === 'ArrowDown';
  const rows = [...new Set(boxes.map((box) => box.top))].sort((a, b) => a - b);
  const row = rows.indexOf(here.top);
  const target = rows[row + (down ? 1 : -1)];
  if (target === undefined) return from;
  let best = from;
  let distance = Infinity;
  boxes.forEach((box, index) => {
    if (box.top !== target) return;
    const gap = Math.abs(box.left - here.left);
    if (gap < distance) [best, distance] = [index, gap];
  });
  return best;
}
