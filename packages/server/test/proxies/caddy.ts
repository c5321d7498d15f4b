/**
 * Debian's Caddy, run for real on a loopback port with a home of its own, serving a Caddyfile
 * block taken from the docs. Test files that need it skip loudly without Caddy, except under
 * CI=true, where they fail.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentedBlock, findExecutable, untilListening, type RunningProxy } from './proxy-process.js';

export type Caddy = RunningProxy;

/** The caddy executable, if installed; without one, warns that `testFile` is skipped (unless CI=true). */
export function findCaddy(testFile: string): string | undefined {
  return findExecutable('caddy', ['/usr/bin', '/usr/local/bin'], testFile, 'caddy (apt-get install caddy)');
}

/** The Caddyfile block of a doc between `<!-- {marker}-begin -->` and `<!-- {marker}-end -->` (proxy-process.ts). */
export function documentedCaddyBlock(doc: string, marker: string, needles: string[]): string {
  return documentedBlock(doc, marker, 'caddy', needles);
}

/** Starts Caddy with `siteConfig` (site blocks listening on `port`), without its admin API or automatic HTTPS. */
export async function startCaddy(binary: string, port: number, siteConfig: string): Promise<Caddy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-caddy-'));
  const caddyfile = path.join(dir, 'Caddyfile');
  fs.writeFileSync(caddyfile, ['{', '  admin off', '  auto_https off', `  storage file_system ${path.join(dir, 'data')}`, '}', '', siteConfig].join('\n'));
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config') };
  const child = spawn(binary, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], { stdio: ['ignore', 'ignore', 'pipe'], env, cwd: dir });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-20_000)));
  return untilListening('caddy', child, port, dir, 200, () => stderr);
}
