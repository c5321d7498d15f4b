#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.mjs in turn (or those named on the command line).
// Each prints its own table with ratios against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = fs
  .readdirSync(here)
  .filter((file) => file.endsWith('.bench.mjs'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();
if (benches.length === 0) {
  console.error('no benchmarks found');
  process.exit(1);
}
let failed = false;
for (const file of benches) {
  console.log(`\n== ${file} ==`);
  const result = spawnSync(process.execPath, [path.join(here, file)], { stdio: 'inherit' });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
