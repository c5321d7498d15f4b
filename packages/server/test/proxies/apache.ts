/**
 * Debian's Apache httpd with mod_auth_openidc, run for real on a loopback port with a
 * configuration of its own around a block taken from docs/oidc.md. Test files that need it skip
 * loudly without it, except under CI=true, where they fail.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentedBlock, readLog, untilListening, warnSkipped, type RunningProxy } from './proxy-process.js';

const BINARY = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

export interface Apache extends RunningProxy {
  /** The error log so far (for failure messages). */
  log(): string;
}

/** Whether apache2 and mod_auth_openidc are installed; without them, warns that `testFile` is skipped (unless CI=true). */
export function hasApacheWithOidc(testFile: string): boolean {
  const present = fs.existsSync(BINARY) && fs.existsSync(path.join(MODULES, 'mod_auth_openidc.so'));
  if (!present) warnSkipped(testFile, 'apache2 and libapache2-mod-auth-openidc');
  return present;
}

/** The apache block of a doc between `<!-- {marker}-begin -->` and `<!-- {marker}-end -->` (proxy-process.ts). */
export function documentedApacheBlock(doc: string, marker: string, needles: string[]): string {
  return documentedBlock(doc, marker, 'apache', needles);
}

/** Starts apache2 in the foreground on `port` with `siteConfig` in its main server. */
export async function startApache(port: number, siteConfig: string): Promise<Apache> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-apache-'));
  fs.chmodSync(dir, 0o755);
  const errorLog = path.join(dir, 'error.log');
  const conf = path.join(dir, 'httpd.conf');
  const modules = ['mpm_event', 'authn_core', 'authz_core', 'authz_user', 'auth_openidc', 'proxy', 'proxy_http', 'headers'];
  fs.writeFileSync(
    conf,
    [
      `ServerRoot ${dir}`,
      `PidFile ${path.join(dir, 'httpd.pid')}`,
      `DefaultRuntimeDir ${dir}`,
      `ErrorLog ${errorLog}`,
      'LogLevel warn auth_openidc:info',
      `Listen 127.0.0.1:${port}`,
      'ServerName 127.0.0.1',
      ...modules.map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`),
      // Root starts it; workers run as nobody.
      ...(process.getuid?.() === 0 ? ['User nobody', 'Group nogroup'] : []),
      siteConfig,
    ].join('\n'),
  );
  const child = spawn(BINARY, ['-f', conf, '-DFOREGROUND'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const running = await untilListening('apache2', child, port, dir, 100, () => `${stderr}\n${readLog(errorLog, '(no error log)')}`);
  return { ...running, log: () => readLog(errorLog) };
}
