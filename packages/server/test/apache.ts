/**
 * Debian's Apache httpd with mod_auth_openidc, run for real on a loopback port with a
 * configuration of its own around a block taken from docs/oidc.md. Test files that need it skip
 * loudly without it, except under CI=true, where they fail.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BINARY = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

export interface Apache {
  url: string;
  /** The error log so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/** Whether apache2 and mod_auth_openidc are installed; without them, warns that `testFile` is skipped (unless CI=true). */
export function hasApacheWithOidc(testFile: string): boolean {
  const present = fs.existsSync(BINARY) && fs.existsSync(path.join(MODULES, 'mod_auth_openidc.so'));
  if (!present && process.env.CI !== 'true') {
    console.warn(`\n*** SKIPPED: ${testFile} needs apache2 and libapache2-mod-auth-openidc; under CI=true this fails ***\n`);
  }
  return present;
}

/** The apache block of a doc between `<!-- {marker}-begin -->` and `<!-- {marker}-end -->`, checked for every needle. */
export function documentedApacheBlock(doc: string, marker: string, needles: string[]): string {
  const text = fs.readFileSync(doc, 'utf8');
  const section = new RegExp(`<!-- ${marker}-begin -->\\s*\`\`\`apache\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}-end -->`).exec(text);
  if (!section) throw new Error(`${path.basename(doc)} lost its tested apache block`);
  for (const needle of needles) {
    if (!section[1]!.includes(needle)) throw new Error(`the documented apache block no longer contains ${needle}`);
  }
  return section[1]!;
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
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    if (await isOpen(port)) break;
    if (attempt >= 100 || child.exitCode !== null) {
      child.kill('SIGKILL');
      const log = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '(no error log)';
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`apache2 did not start on port ${port}:\n${stderr}\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => (fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : ''),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function isOpen(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
