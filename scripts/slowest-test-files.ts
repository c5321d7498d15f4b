// A vitest reporter that prints the ten slowest test files (wall time from import to the last
// hook, with their project) after every run of more than one file, to show where the suite's
// time goes. With UPDATE_TEST_DURATIONS=1 it also records every file's time in
// scripts/test-durations.json, the order of a fresh clone's run (./slowest-first-sequencer.ts).
import fs from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { DURATIONS_FILE, readRecordedDurations } from './slowest-first-sequencer.js';

const SHOWN = 10;

export default class SlowestTestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length < 2) return;
    const timed = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      const seconds = (diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration) / 1000;
      return { seconds, key: `${module.project.name}:${module.relativeModuleId}`, name: `${module.project.name}: ${module.relativeModuleId}` };
    });
    if (process.env.UPDATE_TEST_DURATIONS === '1') recordDurations(timed);
    timed.sort((a, b) => b.seconds - a.seconds);
    const lines = timed.slice(0, SHOWN).map(({ seconds, name }) => `${seconds.toFixed(1).padStart(7)} s  ${name}`);
    process.stdout.write(`\nThe ${Math.min(SHOWN, timed.length)} slowest test files:\n${lines.join('\n')}\n`);
  }
}

/** Merges this run's times (in milliseconds) into the recorded ones, keys sorted for a quiet diff. */
function recordDurations(timed: { seconds: number; key: string }[]): void {
  const durations = readRecordedDurations();
  for (const { seconds, key } of timed) durations[key] = Math.round(seconds * 1000);
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
}
