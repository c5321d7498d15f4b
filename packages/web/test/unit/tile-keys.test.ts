import { describe, expect, it } from 'vitest';
import { tileToFocus } from '../../src/logic/tile-keys';

// Two sections: three tiles in a row, then one; then a section of two.
const boxes = [
  { left: 0, top: 0 },
  { left: 100, top: 0 },
  { left: 200, top: 0 },
  { left: 0, top: 50 },
  { left: 0, top: 150 },
  { left: 100, top: 150 },
];

describe('arrow keys in the launcher grid', () => {
  it('step left and right in reading order and stop at the ends', () => {
    expect(tileToFocus(boxes, 2, 'ArrowRight')).toBe(3);
    expect(tileToFocus(boxes, 5, 'ArrowRight')).toBe(5);
    expect(tileToFocus(boxes, 0, 'ArrowLeft')).toBe(0);
    expect(tileToFocus(boxes, 3, 'Home')).toBe(0);
    expect(tileToFocus(boxes, 0, 'End')).toBe(5);
  });

  it('go up and down to the nearest tile of the next row, across sections', () => {
    expect(tileToFocus(boxes, 1, 'ArrowDown')).toBe(3);
    expect(tileToFocus(boxes, 3, 'ArrowDown')).toBe(4);
    expect(tileToFocus(boxes, 5, 'ArrowUp')).toBe(3);
    expect(tileToFocus(boxes, 2, 'ArrowUp')).toBe(2);
    expect(tileToFocus(boxes, 5, 'ArrowDown')).toBe(5);
  });
});
