/**
 * Debian's Caddy, run for real on a loopback port with a home of its own, serving a Caddyfile
 * block taken from the docs. Test files that need it skip loudly without Caddy, except under
 * CI=true, where they fail.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Caddy {
  url: string;
  stop(): Promise<void>;
}

/** The caddy executable, if installed; without one, warns that `testFile` is skipped (unless CI=true). */
export function findCaddy(testFile: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/local/bin'];
  const binary = dirs.map((dir) => path.join(dir, 'caddy')).find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!binary && process.env.CI !== 'true') {
    console.warn(`\n*** SKIPPED: ${testFile} needs caddy (apt-get install caddy); under CI=true this fails ***\n`);
  }
  return binary;
}

/**
 * The Caddyfile block of a doc between `<!-- {marker}-begin -->` and `<!-- {marker}-end -->`;
 * fails when it is gone or no longer contains every needle (the strings a test replaces).
 */
export function documentedCaddyBlock(doc: string, marker: string, needles: string[]): string {
  const text = fs.readFileSync(doc, 'utf8');
  const section = new RegExp(`<!-- ${marker}-begin -->\\s*\`\`\`caddy\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}-end -->`).exec(text);
  const name = path.relative(path.resolve(doc, '../..'), doc);
  if (!section) throw new Error(`${name} lost its tested Caddy block`);
  const block = section[1];
  for (const needle of needles) {
    if (!block.includes(needle)) throw new Error(`the documented Caddy block no longer contains ${needle}`);
  }
  return block;
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
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    if (await isOpen(port)) break;
    if (attempt >= 200 || child.exitCode !== null) {
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`caddy did not start on port ${port}:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
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
