/**
 * The one printer. Commands answer a Result; this prints it as tables and text for people,
 * as JSON only with --json, or as bare ids / secrets with --quiet.
 */

export interface Result {
  /** What --json prints. */
  json: unknown;
  /** What --quiet prints, one per line (ids, or the created secret). */
  quiet?: Array<string | number>;
  /** A table for people. */
  table?: { head: string[]; rows: Array<Array<string | number | null | undefined>> };
  /** A two-column table of one record. */
  record?: Array<[string, string | number | boolean | null | undefined]>;
  /** Text for people after the table. */
  message?: string;
}

export type OutputMode = 'human' | 'json' | 'quiet';

const useColor = () => !process.env.NO_COLOR && process.stdout.isTTY === true;

const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

export async function render(result: Result, mode: OutputMode): Promise<string> {
  if (mode === 'json') return `${JSON.stringify(result.json ?? null, null, 2)}\n`;
  if (mode === 'quiet') return (result.quiet ?? []).map((line) => `${line}\n`).join('');
  const parts: string[] = [];
  if (result.table || result.record) {
    const [{ default: Table }, { Chalk }] = await Promise.all([import('cli-table3'), import('chalk')]);
    const chalk = new Chalk({ level: useColor() ? 1 : 0 });
    const style = { head: [], border: [] };
    if (result.table) {
      const table = new Table({ head: result.table.head.map((title) => chalk.bold(title)), style });
      for (const row of result.table.rows) table.push(row.map(cell));
      parts.push(table.toString());
    }
    if (result.record) {
      const table = new Table({ style });
      for (const [key, value] of result.record) table.push({ [chalk.bold(key)]: cell(value) });
      parts.push(table.toString());
    }
  }
  if (result.message) parts.push(result.message);
  return parts.length > 0 ? `${parts.join('\n')}\n` : '';
}

/** Writes to stdout and resolves once it is handed to the OS, so an exit right after loses nothing. */
export function writeOut(text: string): Promise<void> {
  return new Promise((resolve) => (text ? process.stdout.write(text, () => resolve()) : resolve()));
}
