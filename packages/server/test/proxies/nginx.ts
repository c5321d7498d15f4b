/**
 * Debian's nginx, run for real on a loopback port with a prefix of its own, serving a
 * configuration block taken from the docs. Test files that need it skip loudly without nginx,
 * except under CI=true, where they fail.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentedBlock, findExecutable, readLog, untilListening, type RunningProxy } from './proxy-process.js';

export type Nginx = RunningProxy;

/** The nginx executable, if installed; without one, warns that `testFile` is skipped (unless CI=true). */
export function findNginx(testFile: string): string | undefined {
  return findExecutable('nginx', ['/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'], testFile, 'nginx (apt-get install nginx)');
}

/** The nginx block of a doc between `<!-- {marker}-begin -->` and `<!-- {marker}-end -->` (proxy-process.ts). */
export function documentedNginxBlock(doc: string, marker: string, needles: string[]): string {
  return documentedBlock(doc, marker, 'nginx', needles);
}

/** Starts nginx with `serverConfig` (upstream and server blocks, listening on `nginxPort`) inside its `http` block. */
export async function startNginx(binary: string, nginxPort: number, serverConfig: string): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-nginx-'));
  const temps = ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];
  const temp = (name: string) => path.join(dir, 'temp', name);
  for (const name of temps) fs.mkdirSync(temp(name), { recursive: true });
  const errorLog = path.join(dir, 'error.log');
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    [
      'master_process off;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${errorLog} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...temps.map((name) => `  ${name === 'body' ? 'client_body' : name}_temp_path ${temp(name)};`),
      serverConfig,
      '}',
    ].join('\n'),
  );
  const child = spawn(binary, ['-p', dir, '-c', conf, '-e', errorLog, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  return untilListening('nginx', child, nginxPort, dir, 100, () => `${stderr}\n${readLog(errorLog, '(no error log)')}`);
}
