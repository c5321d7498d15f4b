/** A small leveled logger writing one line per message to stderr. */
import type { LogLevel } from './config.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Logger {
  const at = (name: Exclude<LogLevel, 'silent'>) => (message: string, detail?: unknown) => {
    if (ORDER[name] < ORDER[level]) return;
    const suffix = detail instanceof Error ? `\n${detail.stack ?? detail.message}` : detail === undefined ? '' : ` ${JSON.stringify(detail)}`;
    write(`${new Date().toISOString()} ${name.toUpperCase()} ${message}${suffix}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
