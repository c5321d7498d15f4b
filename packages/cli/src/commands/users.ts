/** `toolsctl users …`: users (one client each, identified by email), their apps and sessions. */
import { examples, run, yes, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/users.js');

export function register(program: AnyCommand): void {
  const users = program.command('users').description('users: one client each, identified by email, with apps');
  users
    .command('list')
    .description('list users')
    .addHelpText('after', examples('toolsctl users list --json'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
  users
    .command('show')
    .argument('<user>', 'user id or email')
    .description('show a user with client and apps')
    .addHelpText('after', examples('toolsctl users show ann@example.com'))
    .action((user, _options, command) => run(command, async (ctx) => (await handlers()).show(ctx, user)));
  users
    .command('delete')
    .argument('<user>', 'user id or email')
    .addOption(yes())
    .description('delete a user: credentials, sessions, API keys and grants')
    .addHelpText('after', examples('toolsctl users delete ann@example.com --yes'))
    .action((user, options, command) => run(command, async (ctx) => (await handlers()).remove(ctx, user, options)));
  users
    .command('apps')
    .argument('<user>', 'user id or email')
    .description("list a user's apps")
    .addHelpText('after', examples('toolsctl users apps ann@example.com'))
    .action((user, _options, command) => run(command, async (ctx) => (await handlers()).apps(ctx, user)));
  users
    .command('grant')
    .argument('<user>', 'user id or email')
    .argument('<apps...>', 'app ids or names')
    .description('let a user use apps, for good or until --expires')
    .option('--expires <when>', 'a duration (7d, 12h, 30m, 2w) or a date/time (2026-12-01, 2026-12-01T18:00:00Z) when the grant ends')
    .addHelpText('after', examples('toolsctl users grant ann@example.com wiki chat', 'toolsctl users grant ann@example.com vault --expires 7d'))
    .action((...[user, apps, options, command]) => run(command, async (ctx) => (await handlers()).grant(ctx, user, { apps, ...options })));
  users
    .command('revoke')
    .argument('<user>', 'user id or email')
    .argument('<apps...>', 'app ids or names')
    .description('take apps away from a user')
    .addHelpText('after', examples('toolsctl users revoke ann@example.com chat'))
    .action((...[user, apps, , command]) => run(command, async (ctx) => (await handlers()).revoke(ctx, user, apps)));
  users
    .command('end-sessions')
    .argument('<user>', 'user id or email')
    .description('log a user out everywhere now (API keys stay valid)')
    .addHelpText('after', examples('toolsctl users end-sessions ann@example.com'))
    .action((user, _options, command) => run(command, async (ctx) => (await handlers()).endSessions(ctx, user)));
  users
    .command('revoke-keys')
    .argument('<user>', 'user id or email')
    .addOption(yes())
    .description('delete every API key of a user now (needs a signed-in session, not an API key)')
    .addHelpText('after', examples('toolsctl users revoke-keys ann@example.com --yes'))
    .action((user, options, command) => run(command, async (ctx) => (await handlers()).revokeKeys(ctx, user, options)));
  users
    .command('reset-password')
    .argument('<user>', 'user id or email')
    .description('make a password reset link for a user and print it (mailed to them too when the server has mail)')
    .addHelpText('after', examples('toolsctl users reset-password ann@example.com', 'LINK=$(toolsctl users reset-password ann@example.com -q)'))
    .action((user, _options, command) => run(command, async (ctx) => (await handlers()).resetPassword(ctx, user)));
  users
    .command('reset-mfa')
    .argument('<user>', 'user id or email')
    .addOption(yes())
    .description("remove a user's second factors (authenticator app, recovery codes, passkeys) and end their sessions")
    .addHelpText('after', examples('toolsctl users reset-mfa ann@example.com --yes'))
    .action((user, options, command) => run(command, async (ctx) => (await handlers()).resetMfa(ctx, user, options)));
}
