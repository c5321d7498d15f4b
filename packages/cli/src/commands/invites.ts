/** `toolsctl invites …`: invitations (registration tokens) and their links. */
import { Option, examples, run, yes, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/invites.js');

export function register(program: AnyCommand): void {
  const invites = program.command('invites').description('invitations (registration tokens)');
  invites
    .command('list')
    .description('list open invites')
    .addHelpText('after', examples('toolsctl invites list'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
  invites
    .command('create')
    .argument('<email>', 'who is invited')
    .requiredOption('-c, --client <client>', 'client id or name the user will belong to')
    .option('-a, --app <app...>', 'app ids or names to grant (repeatable)')
    .option('--link-app <name>', 'the app the link leads to after registering (default: the first app, else the portal)')
    .option('--send', 'also mail the link to the invitee (needs mail configured on the server)')
    .addOption(
      new Option('--language <language>', "the mail's language, and the user's until they choose (default: the server's DEFAULT_LANGUAGE)").choices([
        'en',
        'de',
      ]),
    )
    .description('invite an email and print the registration link')
    .addHelpText(
      'after',
      examples(
        'toolsctl invites create ann@example.com --client Acme --app wiki --app chat --send',
        'LINK=$(toolsctl invites create bob@example.com -c Acme -q)',
      ),
    )
    .action((email, options, command) => run(command, async (ctx) => (await handlers()).create(ctx, email, options)));
  invites
    .command('resend')
    .argument('<invite>', 'invite id or email')
    .description("mail an open invite's link to the invitee again (needs mail configured on the server)")
    .addHelpText('after', examples('toolsctl invites resend ann@example.com'))
    .action((invite, _options, command) => run(command, async (ctx) => (await handlers()).resend(ctx, invite)));
  invites
    .command('delete')
    .argument('<invite>', 'invite id or email')
    .addOption(yes())
    .description('delete an open invite')
    .addHelpText('after', examples('toolsctl invites delete ann@example.com --yes'))
    .action((invite, options, command) => run(command, async (ctx) => (await handlers()).remove(ctx, invite, options)));
}
