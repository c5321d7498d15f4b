/**
 * Runs the compiled `toolsctl` as a child process with a private config directory, the way an
 * admin or a CI job would, and drives it through a pseudo-terminal (util-linux `script`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { useTestPortal } from '../../server/test/support/support.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const bin = path.join(root, 'packages/cli/bin/toolsctl.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Variables on top of a clean environment (no TOOLS_* from the caller's shell). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  timeoutMs?: number;
}

const homes: string[] = [];

/** A home directory of its own, so no test reads or writes the real user's config. */
export function tempHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsctl-home-'));
  homes.push(home);
  return home;
}

/** Removes every directory tempHome made in this test file (call from afterAll). */
export function removeTempHomes(): void {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
}

export function cleanEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('TOOLS_') && key !== 'NO_COLOR' && key !== 'FORCE_COLOR') env[key] = value;
  Object.assign(env, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }, extra);
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  return env;
}

export function toolsctl(home: string, args: string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: cleanEnv(home, options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`toolsctl ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * Runs toolsctl on a pseudo-terminal: waits for each expected text on the terminal, then types
 * the answer. Answers the whole terminal transcript and the exit code.
 */
export function toolsctlOnTerminal(
  home: string,
  args: string[],
  dialogue: Array<{ expect: string | RegExp; type: string }>,
  options: RunOptions = {},
): Promise<{ code: number | null; transcript: string }> {
  const command = [process.execPath, bin, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: cleanEnv(home, { TERM: 'xterm', ...options.env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let transcript = '';
    let step = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`toolsctl ${args.join(' ')} on a terminal did not finish in time; transcript:\n${transcript}`));
    }, options.timeoutMs ?? 20_000);
    const advance = () => {
      // Each answer is typed once its question is on the screen.
      while (step < dialogue.length) {
        const { expect, type } = dialogue[step];
        const seen = typeof expect === 'string' ? transcript.includes(expect) : expect.test(transcript);
        if (!seen) return;
        step++;
        child.stdin.write(type);
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      transcript += chunk.toString();
      advance();
    });
    child.stderr.on('data', (chunk: Buffer) => (transcript += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, transcript });
    });
  });
}

/** Parses stdout as JSON, failing with what was printed when it is not JSON only. */
export function json<T = unknown>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/**
 * A test portal for a whole file, and toolsctl run as its admin: `run` passes TOOLS_URL and
 * TOOLS_TOKEN; `home` is the CLI's home folder, made once the file's tests start.
 */
export function useAdminToolsctl(...options: Parameters<typeof useTestPortal>) {
  const portal = useTestPortal(...options);
  const cli = {
    portal,
    home: '',
    run: (args: string[], runOptions: RunOptions = {}) =>
      toolsctl(cli.home, args, { ...runOptions, env: { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token, ...runOptions.env } }),
  };
  beforeAll(() => {
    cli.home = tempHome();
  });
  afterAll(() => {
    removeTempHomes();
  });
  return cli;
}
