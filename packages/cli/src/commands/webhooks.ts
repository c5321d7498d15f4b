/** `toolsctl webhooks …`: signed webhooks of event-log entries (docs/webhooks.md). */
import { examples, run, yes, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/webhooks.js');

export function register(program: AnyCommand): void {
  const webhooks = program.command('webhooks').description('webhooks: event-log entries sent to receivers, signed (Standard Webhooks)');
  webhooks
    .command('list')
    .description('list the webhooks: url, events, enabled, warning')
    .addHelpText('after', examples('toolsctl webhooks list', 'toolsctl webhooks list --json'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
  webhooks
    .command('create')
    .argument('<url>', 'the receiver: an https URL (plain http is allowed, with a warning)')
    .requiredOption('--events <types>', 'event types or prefixes ending in ., comma-separated (login.,mfa.,app.create)')
    .option('--description <text>', 'what the hook is for')
    .description('create a webhook and print its signing secret once')
    .addHelpText(
      'after',
      examples(
        "toolsctl webhooks create https://siem.example.com/portal --events 'login.,mfa.,admin.create'",
        'SECRET=$(toolsctl webhooks create https://chat.example.com/hook --events access.request --quiet)',
      ),
    )
    .action((url, options, command) => run(command, async (ctx) => (await handlers()).create(ctx, url, options)));
  webhooks
    .command('delete')
    .argument('<id>', 'the webhook id')
    .addOption(yes())
    .description('delete a webhook and its deliveries')
    .addHelpText('after', examples('toolsctl webhooks delete 3 --yes'))
    .action((id, options, command) => run(command, async (ctx) => (await handlers()).remove(ctx, id, options)));
  webhooks
    .command('test')
    .argument('<id>', 'the webhook id')
    .description('send a webhook.test entry to the hook now and print the outcome of the attempt')
    .addHelpText('after', examples('toolsctl webhooks test 3'))
    .action((id, _options, command) => run(command, async (ctx) => (await handlers()).test(ctx, id)));
  webhooks
    .command('deliveries')
    .argument('<id>', 'the webhook id')
    .description("list the hook's last 100 deliveries, newest first: status, attempts, code, duration, error")
    .addHelpText('after', examples('toolsctl webhooks deliveries 3', 'toolsctl webhooks deliveries 3 --json'))
    .action((id, _options, command) => run(command, async (ctx) => (await handlers()).deliveries(ctx, id)));
}
