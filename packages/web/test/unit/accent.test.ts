import { describe, expect, it } from 'vitest';
import { accentOf, contrast, parseHexColour } from '../../src/logic/accent';

const WHITE = [255, 255, 255] as [number, number, number];

describe('the accent colour (PORTAL_ACCENT_COLOR)', () => {
  it('reads #rrggbb only', () => {
    expect(parseHexColour('#5a2d82')).toEqual([90, 45, 130]);
    expect(parseHexColour('5a2d82')).toBeNull();
    expect(parseHexColour('#5a2d8')).toBeNull();
    expect(accentOf('red')).toBeNull();
  });

  it('puts white text on a dark colour and black on a light one', () => {
    expect(accentOf('#5a2d82')?.text).toBe('#ffffff');
    expect(accentOf('#ffd500')?.text).toBe('#000000');
  });

  it.each(['#000000', '#ffffff', '#ffd500', '#00ff00', '#808080', '#0d6efd', '#5a2d82', '#e83e8c'])(
    '%s: its text and its ink both reach 4.5:1 (WCAG AA)',
    (hex) => {
      const accent = accentOf(hex)!;
      expect(contrast(parseHexColour(accent.colour)!, parseHexColour(accent.text)!)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(parseHexColour(accent.ink)!, WHITE)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('keeps a colour that reads on white as its own ink', () => {
    expect(accentOf('#5a2d82')).toMatchObject({ colour: '#5a2d82', ink: '#5a2d82', rgb: '90, 45, 130', inkRgb: '90, 45, 130' });
  });
});
