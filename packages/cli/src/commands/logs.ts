/** `toolsctl logs` and `toolsctl logs export`: the auth event log, searched and exported. */
import { Option, examples, integer, run, type AnyCommand, type Command } from '../define.js';

const handlers = () => import('../handlers/logs.js');

/** The filters both commands take (docs/event-log.md). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander's own constraint
function withFilters<Args extends any[], Opts extends Record<string, unknown>, Globals extends Record<string, unknown>>(command: Command<Args, Opts, Globals>) {
  return command
    .option('--user <email>', 'entries about this user (exact email or name, any case)')
    .option('--client <name>', 'entries about this client (exact name, any case)')
    .option('--actor <email>', 'entries done by this user (exact email, any case)')
    .option('--type <type>', 'a type (login.failure) or a prefix ending in . (login.)')
    .option('--since <when>', 'entries from then on: a duration back from now (30m, 12h, 7d) or an ISO 8601 date or time')
    .option('--until <when>', 'entries up to then: a duration back from now or an ISO 8601 date (that whole day) or time')
    .option('--grep <text>', 'entries whose text contains this (any case)');
}

export function register(program: AnyCommand): void {
  const logs = withFilters(
    program
      .command('logs')
      .description('show the auth event log, newest first; filter it, follow it, or export it')
      .option('--page <n>', 'page, from 1', integer(1, 1_000_000), 1)
      .option('--per-page <n>', 'entries a page, at most 100', integer(1, 100), 20)
      .option('-f, --follow', 'keep polling and print new entries as they come (Ctrl+C stops)')
      .option('--interval <seconds>', 'seconds between polls with --follow', integer(1, 3600), 2),
  )
    .addHelpText(
      'after',
      examples(
        'toolsctl logs --per-page 50',
        'toolsctl logs --type login. --since 7d',
        'toolsctl logs --actor admin@example.com --grep Globex',
        'toolsctl logs --follow --json --type verify.denied',
      ),
    )
    .action((options, command) => run(command, async (ctx) => (await handlers()).logs(ctx, options)));
  // The filters are declared once, on `logs`: commander hands them to it wherever they stand, also
  // after `export` (`toolsctl logs export --type login.`), so export reads them from there.
  logs
    .command('export')
    .description('write every entry the filters of `toolsctl logs` match to stdout as CSV or JSON Lines (progress on stderr on a terminal)')
    .addOption(
      new Option('--format <format>', 'csv (RFC 4180, for spreadsheets) or jsonl (JSON Lines)').choices(['csv', 'jsonl'] as const).default('csv' as const),
    )
    .addHelpText('after', '\nFilters: --user, --client, --actor, --type, --since, --until, --grep, as for `toolsctl logs` (see toolsctl logs --help).')
    .addHelpText(
      'after',
      examples('toolsctl logs export --format csv > log.csv', 'toolsctl logs export --format jsonl --type login. --since 30d > logins.jsonl'),
    )
    .action((options, command) => run(command, async (ctx) => (await handlers()).exportLog(ctx, { ...logs.opts(), ...options })));
}
