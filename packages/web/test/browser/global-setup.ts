// Builds the web bundle once before the browser tests, when a source is newer than the build, and
// makes the web root the test portals serve (./test-web-root.ts); migrates the database template
// the test portals copy; starts the one Chromium that every browser test file connects to (each
// in contexts of its own), instead of one launch a file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { provideDatabaseTemplate } from '../../../server/test/support/database-template.js';
import { CHROMIUM, CHROMIUM_OPTIONS } from '../../../server/test/support/chromium.js';
import { makeTestWebRoot } from './test-web-root';

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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  build();
  const webRoot = makeTestWebRoot(path.join(web, 'dist'), path.join(root, 'node_modules/axe-core/axe.min.js'));
  project.provide('webRoot', webRoot.dir);
  const removeTemplate = await provideDatabaseTemplate(project);
  // Without Chromium the tests skip (or, under CI, fail) as support.ts decides.
  const browser = fs.existsSync(CHROMIUM) ? await chromium.launchServer(CHROMIUM_OPTIONS) : undefined;
  project.provide('chromiumEndpoint', browser?.wsEndpoint());
  return async () => {
    await browser?.close();
    await removeTemplate();
    webRoot.remove();
  };
}

function build(): void {
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
