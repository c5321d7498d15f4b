/** `toolsctl login`, `logout`, `whoami`: the session toolsctl works with. */
import { examples, run, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/auth.js');

export function register(program: AnyCommand): void {
  program
    .command('login')
    .description(
      'sign in in the browser (any way the portal offers: password and second factor, passkey, Google) and save the session "toolsctl on HOST"; or, with --password, with email and password',
    )
    .option('--no-browser', 'never try to open a browser: only print where to go and the code')
    .option('--password', "log in with email and password (asked on a terminal), today's way")
    .option('--email <email>', 'the email to log in with (implies --password)')
    .option('--password-stdin', 'read the password from stdin (implies --password)')
    .option(
      '--code <code>',
      'with --password, the second factor for an account that has one: a code from the authenticator app, or a recovery code (asked on a terminal otherwise)',
    )
    .addHelpText(
      'after',
      examples(
        'toolsctl login --url https://portal.example.com',
        'toolsctl login --no-browser',
        'toolsctl login --password --url http://127.0.0.1:8080',
        'printf \'%s\' "$PASSWORD" | toolsctl login --email admin@example.com --password-stdin',
        'printf \'%s\' "$PASSWORD" | toolsctl login --email admin@example.com --password-stdin --code "$(oathtool --totp -b "$TOTP_SECRET")"',
      ),
    )
    .action((options, command) => run(command, async (ctx) => (await handlers()).login(ctx, options)));
  program
    .command('logout')
    .description('end the saved session on the server and forget it')
    .addHelpText('after', examples('toolsctl logout'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).logout(ctx)));
  program
    .command('whoami')
    .description('show who the credentials belong to')
    .addHelpText('after', examples('toolsctl whoami --json'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).whoami(ctx)));
}
