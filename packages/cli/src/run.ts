/** Runs a command's work: build the context from the command's options, run it, print its Result. */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { Context, type GlobalOptions } from './context.js';
import { PlanDiffersError } from './exit-codes.js';
import { render, writeOut, type Result } from './output.js';

export async function run(command: CommandUnknownOpts, work: (ctx: Context) => Promise<Result | void>): Promise<void> {
  const ctx = new Context(command.optsWithGlobals() as GlobalOptions);
  let result: Result | void;
  try {
    result = await work(ctx);
  } catch (error) {
    // A failure that still has something to print (`plan --check` finding changes) prints it first.
    if (error instanceof PlanDiffersError) await writeOut(await render(error.result, ctx.mode));
    throw error;
  }
  if (result) await writeOut(await render(result, ctx.mode));
}
