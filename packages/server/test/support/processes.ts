/** Running the compiled server as a child process, for tests that kill or restart it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, and wait for a clean exit. */
  stop(): Promise<number | null>;
}

/** Starts `node dist/main.js` with `env` over a few defaults; answers once it listens, else kills it and fails. */
export async function spawnServer(
  env: Record<string, string>,
  startTimeoutMs = 20_000,
  options: { cwd?: string; nodeArgs?: string[] } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SCRYPT_LOGN: '10', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
