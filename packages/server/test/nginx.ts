/**
 * Debian's nginx, run for real on a loopback port with a prefix of its own, serving a
 * configuration block taken from the docs. Test files that need it skip loudly without nginx,
 * except under CI=true, where they fail.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/** The nginx executable, if installed; without one, warns that `testFile` is skipped (unless CI=true). */
export function findNginx(testFile: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];
  const binary = dirs.map((dir) => path.join(dir, 'nginx')).find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!binary && process.env.CI !== 'true') {
    console.warn(`\n*** SKIPPED: ${testFile} needs nginx (apt-get install nginx); under CI=true this fails ***\n`);
  }
  return binary;
}

/**
 * The nginx block of a doc between `<!-- {marker}-begin -->` and `<!-- {marker}-end -->`; fails
 * when it is gone or no longer contains every needle (the strings a test replaces).
 */
export function documentedNginxBlock(doc: string, marker: string, needles: string[]): string {
  const text = fs.readFileSync(doc, 'utf8');
  const section = new RegExp(`<!-- ${marker}-begin -->\\s*\`\`\`nginx\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}-end -->`).exec(text);
  const name = path.relative(path.resolve(doc, '../..'), doc);
  if (!section) throw new Error(`${name} lost its tested nginx block`);
  const block = section[1];
  for (const needle of needles) {
    if (!block.includes(needle)) throw new Error(`the documented nginx block no longer contains ${needle}`);
  }
  return block;
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
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    if (await isOpen(nginxPort)) break;
    if (attempt >= 100 || child.exitCode !== null) {
      child.kill('SIGKILL');
      const log = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '(no error log)';
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start on port ${nginxPort}:\n${stderr}\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${nginxPort}`,
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
