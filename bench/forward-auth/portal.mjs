// The compiled portal (packages/server/dist) in its own process, configured by the environment
// like `npm start`; BENCH_SCHEMA picks a PostgreSQL schema. Prints {"url"} on its first line.
import { loadConfig, startPortal } from '../../packages/server/dist/index.js';

const portal = await startPortal(loadConfig(process.env), { schema: process.env.BENCH_SCHEMA || undefined });
process.stdout.write(`${JSON.stringify({ url: portal.url })}\n`);
process.on('SIGTERM', () => {
  portal.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
