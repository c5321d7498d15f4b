#!/usr/bin/env node
// `toolsctl --help` against `node -e 0`, run alternately in the same loop so both see the same
// machine load. The bar: the CLI's start takes at most twice as long as bare node.
// Needs the CLI built (`npm run build`). RUNS=40 node bench/cli-startup.bench.mjs to change N.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'packages/cli/bin/toolsctl.js');
if (!fs.existsSync(path.join(root, 'packages/cli/dist/main.js'))) {
  console.error('packages/cli is not built: run `npm run build` first');
  process.exit(1);
}
const runs = Number(process.env.RUNS ?? 30);
const LIMIT = 2;

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'toolsctl --help', args: [bin, '--help'] },
  { name: 'toolsctl apps --help', args: [bin, 'apps', '--help'] },
];

function timeOnce(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${result.status}`);
  return ms;
}

const samples = cases.map(() => []);
for (const testCase of cases) timeOnce(testCase.args); // warms the file cache
for (let run = 0; run < runs; run++) {
  for (const [index, testCase] of cases.entries()) samples[index].push(timeOnce(testCase.args));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const baseline = median(samples[0]);
let failed = false;
console.log(`${runs} runs each, interleaved; median wall time of a start`);
console.log('case'.padEnd(24), 'median ms'.padStart(10), 'min ms'.padStart(8), 'ratio'.padStart(7));
for (const [index, testCase] of cases.entries()) {
  const ratio = median(samples[index]) / baseline;
  const over = index > 0 && ratio > LIMIT;
  failed ||= over;
  console.log(
    testCase.name.padEnd(24),
    median(samples[index]).toFixed(1).padStart(10),
    Math.min(...samples[index])
      .toFixed(1)
      .padStart(8),
    `${ratio.toFixed(2)}x`.padStart(7),
    over ? `  over the ${LIMIT}x limit` : '',
  );
}
process.exit(failed ? 1 : 0);
