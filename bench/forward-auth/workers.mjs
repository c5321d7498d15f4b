// The compiled server as `npm start` runs it (packages/server/dist/main.js), configured by the
// environment (WORKERS and all), on a free loopback port; prints {"url"} once it answers /healthz.
// Its stdout (the log) is this script's stdout, a pipe the bench reads. Its workers are child
// processes of that server, which the bench counts in its CPU figures.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = await new Promise((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
// Node flags given to this script (BENCH_NODE_ARGS: a profiler, say) apply to the server.
const server = spawn(process.execPath, [...process.execArgv, path.join(root, 'packages/server/dist/main.js')], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
server.once('exit', (code) => process.exit(code ?? 1));
const url = `http://127.0.0.1:${port}`;
for (let attempt = 0; attempt < 600; attempt++) {
  const ok = await fetch(`${url}/healthz`).then(
    (response) => response.ok,
    () => false,
  );
  if (ok) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
// Every worker has started once a few fresh connections have been answered.
await new Promise((resolve) => setTimeout(resolve, 1000));
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.on('SIGTERM', () => server.kill('SIGTERM'));
// BENCH_PROFILE: the bench starts and stops the server's profiler (profile-on-signal.mjs) through this process.
if (process.env.BENCH_PROFILE) process.on('SIGUSR2', () => server.kill('SIGUSR2'));
