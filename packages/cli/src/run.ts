/** Runs a command's work: build the context from the command's options, run it, print its Result. */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { Context, type GlobalOptions } from './context.js';
import { render, writeOut, type Result } from './output.js';

export async function run(command: CommandUnknownOpts, work: (ctx: Context) => Promise<Result | void>): Promise<void> {
  const ctx = new Context(command.optsWithGlobals() as GlobalOptions);
  const result = await work(ctx);
  if (result) await writeOut(await render(result, ctx.mode));
}
