/**
 * The built web portal under /auth/, served from memory: every file of the build is read once at
 * start with its brotli and gzip forms (written beside it by the web build, see
 * packages/web/vite.config.ts, or made at start when missing), and answered by Accept-Encoding
 * with an ETag and 304 to a matching If-None-Match. No file system access per request: the
 * libuv thread pool the password hashing shares stays out of the static path (docs/operations.md).
 * A minimal page stands in until the portal is built.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Context } from 'koa';
import { preferredEncoding, type Encoding } from './accept-encoding.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Types worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.map', '.txt', '.ico']);
/** Precompressed siblings the build writes, never served as files of their own. */
const SIBLINGS = ['.br', '.gz'];

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tools-Server</title></head>
<body><h1>Tools-Server</h1><p>The web portal is not built yet: run <code>npm run build</code>.</p></body></html>`;

interface Variant {
  body: Buffer;
  etag: string;
}

export interface WebFile {
  type: string;
  cacheControl: string;
  variants: Partial<Record<Encoding, Variant>>;
  /** Every ETag of this file, whatever its encoding: a 304 for any of them. */
  etags: Set<string>;
}

function listFiles(root: string, relative = ''): string[] {
  const names: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) names.push(...listFiles(root, name));
    else if (entry.isFile() && !SIBLINGS.includes(path.extname(entry.name))) names.push(name);
  }
  return names;
}

/** The build's precompressed form when it is there and not older than the file. */
function prebuilt(file: string, suffix: string, mtimeMs: number): Buffer | undefined {
  try {
    const stat = fs.statSync(file + suffix);
    return stat.mtimeMs >= mtimeMs ? fs.readFileSync(file + suffix) : undefined;
  } catch {
    return undefined;
  }
}

// Fast settings at start (about 40 ms for the whole build); the build itself uses the best ones.
const brotliAtStart = (body: Buffer) =>
  zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
const gzipAtStart = (body: Buffer) => zlib.gzipSync(body, { level: 6 });

/** One file of a folder, with its compressed forms. */
function loadFile(root: string, name: string): WebFile {
  const file = path.join(root, name);
  const { mtimeMs } = fs.statSync(file);
  return fileFrom(name, fs.readFileSync(file), (suffix) => prebuilt(file, suffix, mtimeMs));
}

/** A file from its content; `precompressed` answers the build's .br or .gz form when there is one. */
export function fileFrom(name: string, body: Buffer, precompressed: (suffix: string) => Buffer | undefined = () => undefined): WebFile {
  const extension = path.extname(name);
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const variants: WebFile['variants'] = { identity: { body, etag: `"${tag}"` } };
  if (COMPRESSIBLE.has(extension) && body.length > 0) {
    const br = precompressed('.br') ?? brotliAtStart(body);
    const gzip = precompressed('.gz') ?? gzipAtStart(body);
    // A compressed form only when it saves something.
    if (br.length < body.length) variants.br = { body: br, etag: `"${tag}-br"` };
    if (gzip.length < body.length) variants.gzip = { body: gzip, etag: `"${tag}-gz"` };
  }
  return {
    type: TYPES[extension] ?? 'application/octet-stream',
    // Vite names built assets by content hash: they never change.
    cacheControl: name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    variants,
    etags: new Set(Object.values(variants).map((variant) => variant.etag)),
  };
}

/** Every file of a build, by its path below the root (`index.html`, `assets/index-….js`). */
export function loadWebFiles(root: string | undefined): Map<string, WebFile> {
  const files = new Map<string, WebFile>();
  if (!root) {
    const body = Buffer.from(PLACEHOLDER);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    files.set('index.html', { type: TYPES['.html'], cacheControl: 'no-cache', variants: { identity: { body, etag } }, etags: new Set([etag]) });
    return files;
  }
  for (const name of listFiles(root)) files.set(name, loadFile(root, name));
  return files;
}

/** Whether an If-None-Match header names one of the file's ETags (weak comparison, RFC 9110 13.1.2). */
function notModified(ifNoneMatch: string, file: WebFile): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => file.etags.has(candidate.trim().replace(/^W\//, '')));
}

/** Serves one file of the build: false when there is none at that path. */
export function serveWebFile(ctx: Context, files: Map<string, WebFile>, relative: string): boolean {
  const wanted = relative === '' || relative.endsWith('/') ? `${relative}index.html` : relative;
  let name: string;
  try {
    name = decodeURIComponent(wanted);
  } catch {
    return false;
  }
  const file = files.get(name);
  if (!file) return false;
  // Nothing acceptable (identity refused too): the plain file all the same, as most servers do.
  const encoding = preferredEncoding(ctx.get('Accept-Encoding'), Object.keys(file.variants) as Encoding[]) ?? 'identity';
  const variant = file.variants[encoding]!;
  if (file.variants.br || file.variants.gzip) ctx.vary('Accept-Encoding');
  ctx.set('Cache-Control', file.cacheControl);
  ctx.set('ETag', variant.etag);
  if (notModified(ctx.get('If-None-Match'), file)) {
    ctx.status = 304;
    return true;
  }
  ctx.type = file.type;
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.body = variant.body;
  return true;
}
