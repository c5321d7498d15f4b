/** toolsctl's entry point: parse, run, print a failure as one line, exit with its code. */
import { exitCodeOf, isCommanderError, messageOf } from './exit-codes.js';
import { buildProgram } from './program.js';

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (error) {
    // Commander has printed its own message (usage errors, help).
    if (!isCommanderError(error)) {
      process.stderr.write(`toolsctl: error: ${messageOf(error)}\n`);
      if (process.env.TOOLSCTL_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    }
    return exitCodeOf(error);
  }
}

// A reader that went away (`toolsctl logs -f | head`) ends the run quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 5));

const code = await main(process.argv);
// Exit at once rather than wait for idle keep-alive connections to close.
process.stdout.write('', () => process.exit(code));
