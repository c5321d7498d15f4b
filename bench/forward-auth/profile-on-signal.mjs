// Loaded (--import) into the servers the bench starts when BENCH_PROFILE names a directory: the
// first SIGUSR2 starts V8's CPU profiler, the next stops it and writes the profile there, so that a
// profile holds a row's measured phase only (not start-up, seeding or warm-up; `--cpu-prof` holds
// all of them). The launcher of main.js (workers.mjs) passes the signal on instead.
import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_PROFILE;
const script = path.basename(process.argv[1] ?? '');

if (dir && script !== 'workers.mjs') {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  let written = 0;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      if (error) {
        process.stderr.write(`[profile] ${script}: ${error.message}\n`);
        return;
      }
      const file = path.join(dir, `${script.replace(/\.m?js$/, '')}-${process.pid}-${++written}.cpuprofile`);
      writeFileSync(file, JSON.stringify(result.profile));
      process.stderr.write(`[profile] ${file}\n`);
    });
  });
}
