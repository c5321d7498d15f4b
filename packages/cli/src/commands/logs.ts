/** `toolsctl logs`: the auth event log. */
import { examples, integer, run, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/logs.js');

export function register(program: AnyCommand): void {
  program
    .command('logs')
    .description('show the auth event log, newest first')
    .option('--page <n>', 'page, from 1', integer(1, 1_000_000), 1)
    .option('--per-page <n>', 'entries a page, at most 100', integer(1, 100), 20)
    .option('-f, --follow', 'keep polling and print new entries as they come (Ctrl+C stops)')
    .option('--interval <seconds>', 'seconds between polls with --follow', integer(1, 3600), 2)
    .addHelpText('after', examples('toolsctl logs --per-page 50', 'toolsctl logs --follow --json'))
    .action((options, command) => run(command, async (ctx) => (await handlers()).logs(ctx, options)));
}
