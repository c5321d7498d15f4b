/** Runs a command's handler: build the context, run it, print its Result. */
import type { Command } from 'commander';
import { Context, type GlobalOptions } from './context.js';
import { render, writeOut, type Result } from './output.js';

// Commander hands arguments and options over untyped; each handler declares the shape it reads.
type Options = any;

export type Handler = (ctx: Context, args: Options[], options: Options) => Promise<Result | void>;

export async function run(command: Command, handler: Handler): Promise<void> {
  const ctx = new Context(command.optsWithGlobals<GlobalOptions>());
  const result = await handler(ctx, command.processedArgs, command.opts());
  if (result) await writeOut(await render(result, ctx.mode));
}
