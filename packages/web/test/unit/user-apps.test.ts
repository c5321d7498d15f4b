import { describe, expect, it } from 'vitest';
import { toggled, userAppChanges } from '../../src/logic/user-apps';

describe('userAppChanges', () => {
  it('removes the apps now unchecked and adds the apps newly checked', () => {
    expect(userAppChanges([1, 2, 3], new Set([2, 3, 4, 5]))).toEqual({ remove: [1], add: [4, 5] });
  });

  it('changes nothing when the choice is the same', () => {
    expect(userAppChanges([3, 1], [1, 3])).toEqual({ remove: [], add: [] });
  });

  it('handles a user with no apps and a user losing all of them', () => {
    expect(userAppChanges([], [7])).toEqual({ remove: [], add: [7] });
    expect(userAppChanges([7, 8], [])).toEqual({ remove: [7, 8], add: [] });
  });
});

describe('toggled', () => {
  it('adds or removes one id and leaves the original set alone', () => {
    const checked = new Set([1]);
    expect([...toggled(checked, 2)]).toEqual([1, 2]);
    expect([...toggled(checked, 1)]).toEqual([]);
    expect([...checked]).toEqual([1]);
  });
});
