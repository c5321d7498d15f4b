/** Turns a command handler into a commander action: build the context, run, print the Result. */
import type { Command } from 'commander';
import { Context, type GlobalOptions } from './context.js';
import { render, writeOut, type Result } from './output.js';

// Commander hands arguments and options over untyped; each handler declares the shape it reads.
type Options = any;

export type Handler = (ctx: Context, args: Options[], options: Options) => Promise<Result | void>;

export function act(handler: Handler) {
  return async function (this: Command): Promise<void> {
    const ctx = new Context(this.optsWithGlobals<GlobalOptions>());
    const result = await handler(ctx, this.processedArgs, this.opts());
    if (result) await writeOut(await render(result, ctx.mode));
  };
}
