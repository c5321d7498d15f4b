/** `toolsctl sessions …`: the signed-in user's own sessions (not with an API key: the server refuses). */
import { examples, run, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/sessions.js');

export function register(program: AnyCommand): void {
  const sessions = program.command('sessions').description('your own sessions: where you are signed in');
  sessions
    .command('list')
    .description('list your sessions; the one toolsctl uses is marked current')
    .addHelpText('after', examples('toolsctl sessions list', 'toolsctl sessions list --json'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
  sessions
    .command('revoke')
    .argument('[id]', 'the session to end (from sessions list)')
    .option('--others', 'end every session but the one toolsctl uses')
    .description('end one of your sessions, or all the others')
    .addHelpText('after', examples('toolsctl sessions revoke 42', 'toolsctl sessions revoke --others'))
    .action((id, options, command) => run(command, async (ctx) => (await handlers()).revoke(ctx, id, options)));
}
