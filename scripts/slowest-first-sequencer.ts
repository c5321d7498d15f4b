// A vitest sequencer that starts the slowest test files first, over every project at once, so
// that no long file starts last and keeps one worker busy while the other waits. A file's time
// is its last one in vitest's cache on this machine, else the one recorded in
// scripts/test-durations.json (kept for fresh clones), else it counts as slow (a new file).
// `UPDATE_TEST_DURATIONS=1 npx vitest run` rewrites that file (see ./slowest-test-files.ts).
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const DURATIONS_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), 'test-durations.json');

/** The key of a test file in the cache and in test-durations.json: `project:relative/path`. */
export function durationKey(project: string, root: string, moduleId: string): string {
  return `${project}:${path.relative(root, moduleId)}`;
}

export function readRecordedDurations(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = readRecordedDurations();
    const root = this.ctx.config.root;
    const time = (spec: TestSpecification) => {
      const key = durationKey(spec.project.name, root, spec.moduleId);
      return this.ctx.cache.getFileTestResults(key)?.duration ?? recorded[key] ?? Number.MAX_SAFE_INTEGER;
    };
    const times = new Map(files.map((spec) => [spec, time(spec)]));
    return [...files].sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || times.get(b)! - times.get(a)!);
  }
}
