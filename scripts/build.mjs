#!/usr/bin/env node
// Builds the workspace: TypeScript packages with `tsc -b` (incremental), then the web portal with
// Vite. With --if-stale (what `npm start` uses) the web build runs only when its sources changed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ifStale = process.argv.includes('--if-stale');

function run(command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build failed: ${command} ${args.join(' ')}`);
    process.exit(result.status ?? 1);
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const tsPackages = ['core', 'server', 'cli'].filter((name) => fs.existsSync(path.join(root, 'packages', name, 'tsconfig.json')));
run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', ...tsPackages.map((name) => `packages/${name}`)]);

const web = path.join(root, 'packages/web');
const viteConfig = ['vite.config.ts', 'vite.config.mjs', 'vite.config.js'].find((file) => fs.existsSync(path.join(web, file)));
if (viteConfig) {
  const built = path.join(web, 'dist/index.html');
  const stale =
    !fs.existsSync(built) || newestMtime(web) > fs.statSync(built).mtimeMs || newestMtime(path.join(root, 'packages/core/src')) > fs.statSync(built).mtimeMs;
  if (!ifStale || stale) {
    console.error('building the web portal…');
    run(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], web);
  }
}
