/**
 * Questions to the person at the terminal. Inquirer is loaded only when a question is asked,
 * prompts draw on stderr (stdout stays clean for --json), and nothing ever waits when stdin
 * is not a terminal.
 */
import { UsageError } from './exit-codes.js';

export const canPrompt = () => process.stdin.isTTY === true;

const context = () => ({ input: process.stdin, output: process.stderr });

export async function ask(message: string): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  return input({ message, required: true }, context());
}

export async function askSecret(message: string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return password({ message, mask: '*' }, context());
}

/**
 * Confirms a destructive step: `--yes` skips the question; without a terminal and without
 * `--yes` it refuses rather than wait.
 */
export async function confirmOrRefuse(what: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!canPrompt()) throw new UsageError(`refusing to ${what} without confirmation: stdin is not a terminal; pass --yes`);
  const { confirm } = await import('@inquirer/prompts');
  const confirmed = await confirm({ message: `Really ${what}?`, default: false }, context());
  if (!confirmed) throw new UsageError(`cancelled: did not ${what}`);
}

/** Reads a secret piped on stdin (`--password-stdin`): the whole input minus one final newline. */
export async function readStdinSecret(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin needs the password piped on stdin');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
