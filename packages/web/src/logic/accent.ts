/**
 * The accent colour (PORTAL_ACCENT_COLOR, docs/configuration.md) as the screens use it, readable
 * whatever the colour: text on it is white or black, whichever contrasts more (one of them always
 * reaches 4.5:1), and its "ink" (links, outlined buttons, hover) is the colour darkened until it
 * reaches 4.5:1 on white (WCAG 2.1 contrast).
 */

type Rgb = [number, number, number];

const AA_CONTRAST = 4.5;
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

export function parseHexColour(hex: string): Rgb | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return match ? [parseInt(match[1], 16), parseInt(match[2], 16), parseInt(match[3], 16)] : null;
}

const hexOf = (rgb: Rgb) => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

export interface Accent {
  /** The colour itself: primary buttons' background. */
  colour: string;
  /** `r, g, b` of it, for Bootstrap's `--bs-primary-rgb`. */
  rgb: string;
  /** Text on the colour: white or black. */
  text: string;
  /** The colour, darkened as needed to read on white: links, outlined buttons, hover. */
  ink: string;
  inkRgb: string;
}

/** The accent's shades, or null for something that is not `#rrggbb`. */
export function accentOf(hex: string): Accent | null {
  const rgb = parseHexColour(hex);
  if (!rgb) return null;
  const text = contrast(rgb, WHITE) >= contrast(rgb, BLACK) ? WHITE : BLACK;
  let ink = rgb;
  // Mixes in black a step at a time; 20 steps of 5% reach black, which contrasts 21:1 with white.
  for (let step = 1; contrast(ink, WHITE) < AA_CONTRAST && step <= 20; step++) ink = rgb.map((channel) => channel * (1 - step * 0.05)) as Rgb;
  return { colour: hexOf(rgb), rgb: rgb.join(', '), text: hexOf(text), ink: hexOf(ink), inkRgb: ink.map(Math.round).join(', ') };
}
