import { describe, expect, it } from 'vitest';
import { dateRangeInverted, eventTextParts } from '../../src/logic/event-text';

describe('event text', () => {
  it('finds ISO times with a zone and leaves the rest as text', () => {
    expect(eventTextParts('granted wiki to ann until 2026-12-01T10:00:00.000Z (by bob)')).toEqual([
      { kind: 'text', text: 'granted wiki to ann until ' },
      { kind: 'time', iso: '2026-12-01T10:00:00.000Z' },
      { kind: 'text', text: ' (by bob)' },
    ]);
    expect(eventTextParts('2026-01-02T03:04Z')).toEqual([{ kind: 'time', iso: '2026-01-02T03:04Z' }]);
  });

  it('keeps text without a time, a date alone, and an impossible time as it is', () => {
    expect(eventTextParts('signed in')).toEqual([{ kind: 'text', text: 'signed in' }]);
    expect(eventTextParts('on 2026-12-01 only')).toEqual([{ kind: 'text', text: 'on 2026-12-01 only' }]);
    expect(eventTextParts('at 2026-13-45T99:99:00Z')).toEqual([{ kind: 'text', text: 'at 2026-13-45T99:99:00Z' }]);
  });
});

describe('the log date range', () => {
  it('refuses From after To, and nothing else', () => {
    expect(dateRangeInverted('2026-11-02', '2026-11-01')).toBe(true);
    expect(dateRangeInverted('2026-11-01', '2026-11-01')).toBe(false);
    expect(dateRangeInverted('', '2026-11-01')).toBe(false);
    expect(dateRangeInverted('2026-11-01', undefined)).toBe(false);
  });
});
