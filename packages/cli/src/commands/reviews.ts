/** `toolsctl reviews …`: access reviews (docs/reviews.md): admins, and app owners for their apps. */
import { Option, examples, integer, run, yes, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/reviews.js');

export function register(program: AnyCommand): void {
  const reviews = program.command('reviews').description('access reviews: owners or admins keep or remove each grant of some apps by a due date');
  reviews
    .command('list')
    .description('list the reviews you may see, open ones first, with their progress')
    .addHelpText('after', examples('toolsctl reviews list', 'toolsctl reviews list --json'))
    .action((options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
  reviews
    .command('start')
    .argument('<name>', 'the review name')
    .argument('[apps...]', 'the apps, by name or id (or --all)')
    .option('--all', 'every app (for an owner: every app you own)')
    .addOption(new Option('--reviewers <who>', "who decides: the apps' owners or the admins").choices(['owners', 'admins'] as const).default('owners' as const))
    .requiredOption('--due <when>', 'when it closes: a duration from now (30d, 2w) or a date (2026-12-31)')
    .addOption(new Option('--when-missed <what>', 'what undecided grants become at the close').choices(['keep', 'revoke'] as const).default('keep' as const))
    .description('start a review: every current grant of the apps, to users and teams, becomes an item')
    .addHelpText(
      'after',
      examples(
        'toolsctl reviews start "Q4 review" grafana vault --due 30d',
        'toolsctl reviews start Yearly --all --reviewers admins --due 2026-12-31 --when-missed revoke',
      ),
    )
    .action((...[name, apps, options, command]) => run(command, async (ctx) => (await handlers()).start(ctx, { name, apps, ...options })));
  reviews
    .command('show')
    .argument('<review>', 'the review id')
    .option('--undecided', 'only items not decided yet')
    .option('--decided', 'only decided items')
    .option('--app <app>', "only this app's items (name or id)")
    .option('--unused-days <n>', 'only items never used or not used in this many days', integer(0, 99_999))
    .description('show a review and its items (an owner: the items of apps you own)')
    .addHelpText('after', examples('toolsctl reviews show 3', 'toolsctl reviews show 3 --undecided --unused-days 90'))
    .action((review, options, command) => run(command, async (ctx) => (await handlers()).show(ctx, review, options)));
  reviews
    .command('decide')
    .argument('<review>', 'the review id')
    .argument('<decision>', 'keep or remove')
    .argument('[items...]', 'item ids; none: every item the filters select')
    .option('--comment <text>', 'why, kept as evidence')
    .option('--apply-now', 'with remove: revoke the grants at once, not at the close')
    .option('--undecided', 'select the items not decided yet')
    .option('--app <app>', "select this app's items (name or id)")
    .option('--unused-days <n>', 'select items never used or not used in this many days', integer(0, 99_999))
    .description('keep or remove items: the ids given, or every item the filters select')
    .addHelpText(
      'after',
      examples('toolsctl reviews decide 3 keep 41 42', 'toolsctl reviews decide 3 remove --undecided --unused-days 90 --comment "not used"'),
    )
    .action((...[review, decision, items, options, command]) =>
      run(command, async (ctx) => (await handlers()).decide(ctx, { review, decision, items, ...options })),
    );
  reviews
    .command('close')
    .argument('<review>', 'the review id')
    .addOption(yes())
    .description('close a review now: removals take effect, undecided items follow its when-missed rule')
    .addHelpText('after', examples('toolsctl reviews close 3 --yes'))
    .action((review, options, command) => run(command, async (ctx) => (await handlers()).close(ctx, review, options)));
  reviews
    .command('export')
    .argument('<review>', 'the review id')
    .addOption(
      new Option('--format <format>', 'csv (RFC 4180, for spreadsheets) or jsonl (JSON Lines)').choices(['csv', 'jsonl'] as const).default('csv' as const),
    )
    .description("write a review's evidence to stdout: every item with decision, decider, time, comment and outcome")
    .addHelpText('after', examples('toolsctl reviews export 3 > review-3.csv', 'toolsctl reviews export 3 --format jsonl'))
    .action((review, options, command) => run(command, async (ctx) => (await handlers()).exportReview(ctx, review, options)));
}
