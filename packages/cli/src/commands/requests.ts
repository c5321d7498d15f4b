/** `toolsctl requests …`: access requests for requestable apps, and their decisions (admins). */
import { examples, run, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/requests.js');

export function register(program: AnyCommand): void {
  const requests = program.command('requests').description('access requests: users asking for requestable apps');
  requests
    .command('list')
    .description('list access requests: for admins every open one and the last 100 decided; for others their own')
    .option('--open', 'only the open ones')
    .addHelpText('after', examples('toolsctl requests list', 'toolsctl requests list --open --quiet'))
    .action((options, command) => run(command, async (ctx) => (await handlers()).list(ctx, options)));
  requests
    .command('approve')
    .argument('<id>', 'the request id')
    .option('--expires <when>', 'the grant ends after a duration (7d, 12h, 30m, 2w) or at a date (2026-12-01)')
    .description('approve an open request: the user gets the app')
    .addHelpText('after', examples('toolsctl requests approve 12', 'toolsctl requests approve 12 --expires 7d'))
    .action((id, options, command) => run(command, async (ctx) => (await handlers()).approve(ctx, id, options)));
  requests
    .command('deny')
    .argument('<id>', 'the request id')
    .option('--reason <text>', 'why, shown to the user')
    .description('deny an open request')
    .addHelpText('after', examples('toolsctl requests deny 12 --reason "ask your manager"'))
    .action((id, options, command) => run(command, async (ctx) => (await handlers()).deny(ctx, id, options)));
}
