/**
 * What the command files (`commands/*.ts`) declare commands with. Commander comes typed by
 * @commander-js/extra-typings, so each action's arguments and options get their types from the
 * declarations beside it (a handler expecting another shape does not compile). Nothing heavy
 * loads here: a command's handler, the runner and core load only when that command runs, so
 * `toolsctl --help` stays quick.
 */
import { createRequire } from 'node:module';
import type * as Commander from '@commander-js/extra-typings';
import type { Context } from './context.js';
import type { Result } from './output.js';

const require = createRequire(import.meta.url);
// commander is CommonJS: require() skips the ESM wrapper and its export analysis, a measurable part
// of a start. extra-typings is the same runtime with stronger types.
export const { Command, Option } = require('commander') as typeof Commander;
const { InvalidArgumentError } = require('commander') as typeof Commander;
// eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type -- commander's own constraint and defaults
export type Command<Args extends any[] = [], Opts extends Commander.OptionValues = {}, GlobalOpts extends Commander.OptionValues = {}> = Commander.Command<
  Args,
  Opts,
  GlobalOpts
>;
/** Any command, whatever its arguments and options: what a group registers itself on. */
export type AnyCommand = Commander.CommandUnknownOpts;

/** Runs a command's work with its context and prints what it answers. */
export async function run(command: AnyCommand, work: (ctx: Context) => Promise<Result | void>): Promise<void> {
  const runner = await import('./run.js');
  await runner.run(command, work);
}

/** An option parser for whole numbers from `min` to `max`. */
export const integer = (min: number, max: number) => (value: string) => {
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
};

/** The Example(s) section every command's help ends with. */
export const examples = (...lines: string[]) => `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;

export const yes = () => new Option('-y, --yes', 'do not ask for confirmation');
