// Builds the web bundle once before the browser tests, when a source is newer than the build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = path.resolve(web, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'test'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const built = path.join(web, 'dist/index.html');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  const sources = Math.max(newestMtime(web), newestMtime(path.join(root, 'packages/core/src')));
  if (builtAt >= sources) return;
  // The production bundle, as `npm run build` makes it: vitest sets NODE_ENV=test, which would
  // give React's development build (twice the size, and not what ships).
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: web,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('vite build of packages/web failed');
}
