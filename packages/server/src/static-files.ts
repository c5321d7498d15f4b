/** Serves the built web portal under /auth/; a minimal page stands in until it is built. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'koa';

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

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tools-Server</title></head>
<body><h1>Tools-Server</h1><p>The web portal is not built yet: run <code>npm run build</code>.</p></body></html>`;

/** Answers a GET under the mount; false when there is no such file. */
export async function serveWebFile(ctx: Context, root: string | undefined, relative: string): Promise<boolean> {
  const wanted = relative === '' || relative.endsWith('/') ? `${relative}index.html` : relative;
  if (!root) {
    if (wanted !== 'index.html') return false;
    ctx.type = TYPES['.html'];
    ctx.body = PLACEHOLDER;
    return true;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(wanted);
  } catch {
    return false;
  }
  const file = path.resolve(root, decoded);
  if (decoded.includes('\0') || (file !== root && !file.startsWith(root + path.sep))) return false;
  let stat;
  try {
    stat = await fs.stat(file);
  } catch {
    return false;
  }
  if (!stat.isFile()) return false;
  ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  ctx.length = stat.size;
  ctx.lastModified = stat.mtime;
  // Vite names built assets by content hash: they never change.
  ctx.set('Cache-Control', decoded.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  ctx.body = await fs.readFile(file);
  return true;
}
