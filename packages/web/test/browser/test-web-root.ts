// The web root the browser tests' portals serve: the built bundle, and axe-core beside it at
// /auth/axe.min.js. A portal page loads axe from there as a same-origin script (the portal's CSP
// allows 'self'), instead of taking its 650 kB through Playwright's protocol, test worker to the
// run's Playwright server to Chromium, on every page (about 0.15 s a page on a loaded 2-core machine).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/** axe-core's name in the test web root, served at /auth/ + this. */
export const AXE_FILE = 'axe.min.js';

/** A copy of `dist` with axe-core added, precompressed as the build's files are (else each portal start compresses it). */
export function makeTestWebRoot(dist: string, axe: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-web-root-'));
  // Timestamps kept: the server takes a .br or .gz only when it is not older than its file.
  fs.cpSync(dist, dir, { recursive: true, preserveTimestamps: true });
  const body = fs.readFileSync(axe);
  const file = path.join(dir, AXE_FILE);
  fs.writeFileSync(file, body);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body));
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
