/**
 * Debian's HAProxy (2.6), run for real in the foreground on a loopback port, with the forward-auth
 * Lua action of deploy/haproxy/ and configuration blocks taken from the docs. Test files that need
 * it skip loudly without HAProxy, except under CI=true, where they fail.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentedBlock, findExecutable, untilListening, type RunningProxy } from './proxy-process.js';

export type HAProxy = RunningProxy;

/** The Lua action the docs load from `/etc/haproxy/portal-auth.lua`. */
export const LUA_ACTION = fileURLToPath(new URL('../../../../deploy/haproxy/portal-auth.lua', import.meta.url));

/** The haproxy executable, if installed; without one, warns that `testFile` is skipped (unless CI=true). */
export function findHAProxy(testFile: string): string | undefined {
  return findExecutable('haproxy', ['/usr/sbin', '/usr/local/sbin'], testFile, 'haproxy (apt-get install haproxy)');
}

/** The HAProxy block of a doc between `<!-- {marker}-begin -->` and `<!-- {marker}-end -->` (proxy-process.ts). */
export function documentedHAProxyBlock(doc: string, marker: string, needles: string[]): string {
  return documentedBlock(doc, marker, 'haproxy', needles);
}

/** Starts HAProxy in the foreground with `config` (global, defaults, frontends listening on `port`, backends). */
export async function startHAProxy(binary: string, port: number, config: string): Promise<HAProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const check = spawn(binary, ['-c', '-q', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  check.stdout?.on('data', (chunk) => (output += String(chunk)));
  check.stderr?.on('data', (chunk) => (output += String(chunk)));
  const valid = await new Promise<boolean>((resolve) => check.once('exit', (code) => resolve(code === 0)));
  if (!valid) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`haproxy refused the configuration:\n${output}\n${config}`);
  }
  const child = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-20_000)));
  return untilListening('haproxy', child, port, dir, 100, () => stderr);
}
