/** `toolsctl keys …`: your API keys (access tokens). */
import { examples, run, yes, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/keys.js');

export function register(program: AnyCommand): void {
  const keys = program.command('keys').description('your API keys (access tokens)');
  keys
    .command('list')
    .description('list your API keys, masked')
    .addHelpText('after', examples('toolsctl keys list'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
  keys
    .command('create')
    .description('generate an API key and print it once (needs a signed-in session, not an API key)')
    .option('--name <name>', 'what the key is for, shown in lists')
    .option('--expires <when>', 'a duration (7d, 12h, 30m, 2w) or a date/time (2026-12-01, 2026-12-01T18:00:00Z) when the key stops working')
    .addHelpText('after', examples('TOOLS_TOKEN=$(toolsctl keys create --quiet)', "toolsctl keys create --name 'CI deploy' --expires 30d"))
    .action((options, command) => run(command, async (ctx) => (await handlers()).create(ctx, options)));
  keys
    .command('delete')
    .argument('<key>', 'the key id or the full key')
    .addOption(yes())
    .description('delete an API key (needs a signed-in session, not an API key)')
    .addHelpText('after', examples('toolsctl keys delete 3 --yes'))
    .action((key, options, command) => run(command, async (ctx) => (await handlers()).remove(ctx, key, options)));
}
