/** `toolsctl mail …`: the portal's mail outbox. */
import { examples, run, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/mail.js');

export function register(program: AnyCommand): void {
  const mail = program.command('mail').description('the outbox of mail the portal sends');
  mail
    .command('list')
    .description('list the outbox, newest first: to, subject, status, attempts, last error')
    .addHelpText('after', examples('toolsctl mail list', 'toolsctl mail list --json'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
}
