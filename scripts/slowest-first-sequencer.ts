// A vitest sequencer that runs one project's files after another's, each project's slowest file
// first, so that no long file starts last and keeps one worker busy while the other waits.
// Projects go in the order of their slowest file. Vitest's pool keeps a worker (and the modules
// it imported) for the next file only when that file is of the same project (`isolate: false`);
// files of all projects in one order of time started a new worker for about every second file,
// a second or two of CPU each to start node and import the modules again. A file's time
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
    const slowestOfProject = new Map<string, number>();
    for (const [spec, ms] of times) slowestOfProject.set(spec.project.name, Math.max(ms, slowestOfProject.get(spec.project.name) ?? 0));
    const projectTime = (spec: TestSpecification) => slowestOfProject.get(spec.project.name)!;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        projectTime(b) - projectTime(a) ||
        a.project.name.localeCompare(b.project.name) ||
        times.get(b)! - times.get(a)!,
    );
  }
}
