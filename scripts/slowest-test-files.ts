// A vitest reporter that prints the ten slowest test files (wall time from import to the last
// hook, with their project) after every run of more than one file, to show where the suite's
// time goes.
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestTestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length < 2) return;
    const timed = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      const seconds = (diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration) / 1000;
      return { seconds, name: `${module.project.name}: ${module.relativeModuleId}` };
    });
    timed.sort((a, b) => b.seconds - a.seconds);
    const lines = timed.slice(0, SHOWN).map(({ seconds, name }) => `${seconds.toFixed(1).padStart(7)} s  ${name}`);
    process.stdout.write(`\nThe ${Math.min(SHOWN, timed.length)} slowest test files:\n${lines.join('\n')}\n`);
  }
}
