/**
 * What an uploaded icon really is (docs/security.md, A hostile icon): its bytes are walked, not just its
 * first few, so a PNG signature in front of something else, an SVG (which may carry script), or
 * a truncated file are all refused. Pure: bytes in, a type or a reason out.
 */
import zlib from 'node:zlib';

export const MAX_ICON_BYTES = 256 * 1024;
export const ICON_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
type IconType = (typeof ICON_TYPES)[number];

export type IconCheck = { ok: true; type: IconType } | { ok: false; reason: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_SIDE = 4096;

export function checkIcon(bytes: Buffer): IconCheck {
  if (bytes.length === 0) return { ok: false, reason: 'is empty' };
  if (looksLikeSvg(bytes)) return { ok: false, reason: 'SVG is not accepted: use PNG, JPEG or WebP' };
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return verdict('image/png', pngProblem(bytes));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return verdict('image/jpeg', jpegProblem(bytes));
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return verdict('image/webp', webpProblem(bytes));
  return { ok: false, reason: 'is not a PNG, JPEG or WebP image' };
}

function verdict(type: IconType, problem: string | undefined): IconCheck {
  return problem ? { ok: false, reason: `is not a valid ${type.slice(6).toUpperCase()} image: ${problem}` } : { ok: true, type };
}

function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes
    .toString('utf8', 0, Math.min(bytes.length, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<?xml') || head.startsWith('<svg') || head.startsWith('<!doctype svg') || /<svg[\s>]/.test(head);
}

function pngProblem(bytes: Buffer): string | undefined {
  let offset = 8;
  let index = 0;
  let sawData = false;
  // Every chunk takes at least 12 bytes, so the loop ends after at most size/12 rounds.
  while (offset < bytes.length) {
    if (offset + 12 > bytes.length) return 'a chunk is cut short';
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type) || end > bytes.length) return 'a chunk is cut short or malformed';
    const crc = bytes.readUInt32BE(end - 4);
    if (zlib.crc32(bytes.subarray(offset + 4, end - 4)) !== crc) return `chunk ${type} fails its checksum`;
    if (index === 0) {
      if (type !== 'IHDR' || length !== 13) return 'it does not start with a header chunk';
      const width = bytes.readUInt32BE(offset + 8);
      const height = bytes.readUInt32BE(offset + 12);
      if (width === 0 || height === 0 || width > MAX_SIDE || height > MAX_SIDE) return `its size ${width}×${height} is out of range`;
    }
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') {
      if (end !== bytes.length) return 'bytes follow its end';
      return sawData ? undefined : 'it has no image data';
    }
    offset = end;
    index++;
  }
  return 'it has no end chunk';
}

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegProblem(bytes: Buffer): string | undefined {
  let offset = 2;
  let sawFrame = false;
  // Each segment advances by at least 2 bytes: bounded by the size.
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return 'a segment marker is missing';
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > bytes.length) return 'a segment is cut short';
    if (SOF.has(marker)) {
      if (length < 8) return 'its frame header is too short';
      const height = bytes.readUInt16BE(offset + 5);
      const width = bytes.readUInt16BE(offset + 7);
      if (width === 0 || height === 0 || width > MAX_SIDE || height > MAX_SIDE) return `its size ${width}×${height} is out of range`;
      sawFrame = true;
    }
    if (marker === 0xda) {
      if (!sawFrame) return 'its scan comes before a frame header';
      const tail = bytes.length - 2;
      return bytes[tail] === 0xff && bytes[tail + 1] === 0xd9 ? undefined : 'it has no end marker';
    }
    offset += 2 + length;
  }
  return 'it has no image data';
}

function webpProblem(bytes: Buffer): string | undefined {
  if (bytes.length < 20) return 'it is cut short';
  const riffSize = bytes.readUInt32LE(4);
  if (riffSize + 8 !== bytes.length && riffSize + 9 !== bytes.length) return 'its length does not match its header';
  const chunk = bytes.toString('latin1', 12, 16);
  const size = bytes.readUInt32LE(16);
  if (20 + size > bytes.length) return 'its first chunk is cut short';
  const data = bytes.subarray(20, 20 + size);
  switch (chunk) {
    case 'VP8 ':
      return data.length >= 10 && data[3] === 0x9d && data[4] === 0x01 && data[5] === 0x2a ? undefined : 'its VP8 frame is malformed';
    case 'VP8L':
      return data.length >= 5 && data[0] === 0x2f ? undefined : 'its lossless frame is malformed';
    case 'VP8X':
      return data.length >= 10 && bytes.length > 30 ? undefined : 'its extended header is malformed';
    default:
      return 'it has no image chunk';
  }
}
