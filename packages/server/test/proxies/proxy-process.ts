/**
 * What the tests that run a real reverse proxy (nginx.ts, caddy.ts, apache.ts) share: finding the
 * executable, reading the tested configuration block out of a doc, and running the process until
 * it listens on its loopback port.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface RunningProxy {
  url: string;
  stop(): Promise<void>;
}

/**
 * The executable `name` in PATH or `dirs`, if installed; without one, warns that `testFile` is
 * skipped (unless CI=true, where the test file fails instead).
 */
export function findExecutable(name: string, dirs: string[], testFile: string, install: string): string | undefined {
  const candidates = [...(process.env.PATH ?? '').split(path.delimiter), ...dirs];
  const binary = candidates
    .map((dir) => path.join(dir, name))
    .find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  if (!binary) warnSkipped(testFile, install);
  return binary;
}

/** Says loudly that `testFile` is skipped for want of `install` (nothing under CI=true, where it fails). */
export function warnSkipped(testFile: string, install: string): void {
  if (process.env.CI !== 'true') console.warn(`\n*** SKIPPED: ${testFile} needs ${install}; under CI=true this fails ***\n`);
}

/**
 * The `language` block of a doc between `<!-- {marker}-begin -->` and `<!-- {marker}-end -->`;
 * fails when it is gone or no longer contains every needle (the strings a test replaces).
 */
export function documentedBlock(doc: string, marker: string, language: string, needles: string[]): string {
  const text = fs.readFileSync(doc, 'utf8');
  const section = new RegExp(`<!-- ${marker}-begin -->\\s*\`\`\`${language}\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}-end -->`).exec(text);
  const name = path.relative(path.resolve(doc, '../..'), doc);
  if (!section) throw new Error(`${name} lost its tested ${language} block`);
  const block = section[1];
  for (const needle of needles) {
    if (!block.includes(needle)) throw new Error(`the documented ${language} block no longer contains ${needle}`);
  }
  return block;
}

/**
 * Waits (at most `attempts` × 50 ms) until `child` listens on `port`; answers how to reach and stop
 * it, which also removes its folder `dir`. If it exits or never listens, kills it, removes `dir`
 * and throws with what `diagnostics` says (its stderr, its error log).
 */
export async function untilListening(
  what: string,
  child: ChildProcess,
  port: number,
  dir: string,
  attempts: number,
  diagnostics: () => string,
): Promise<RunningProxy> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    if (await isOpen(port)) break;
    if (attempt >= attempts || child.exitCode !== null) {
      child.kill('SIGKILL');
      const details = diagnostics();
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`${what} did not start on port ${port}:\n${details}`);
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

/** The text of a log file, or `fallback` when it does not exist (yet). */
export function readLog(file: string, fallback = ''): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : fallback;
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
