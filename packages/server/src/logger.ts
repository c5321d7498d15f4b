/**
 * Logs through pino: JSON lines (LOG_FORMAT=json, the default when stdout is not a terminal) or
 * readable lines on a terminal (LOG_FORMAT=pretty). Callers write `logger.warn(message, detail)`;
 * an Error detail lands under `err` with its stack, an object's fields beside the message.
 * Fields that may hold secrets are censored whatever the caller passes (docs/operations.md).
 *
 * Lines to stdout are buffered and written asynchronously (pino's own destination, SonicBoom): a
 * request never waits for a write to a pipe (docs/performance.md, "Fast in the configuration people run"). Each write is whole
 * lines of at most PIPE_BUF bytes, so the lines of several workers sharing one pipe never
 * interleave; the buffer is written out at least every FLUSH_INTERVAL_MS, by `flush()` before the
 * process ends (at shutdown and after a fatal error: main.ts), and synchronously at process exit.
 */
import { destination as pinoDestination, pino, stdSerializers, type Logger as Pino } from 'pino';
import type { LogLevel } from './config.js';

type LogFormat = 'json' | 'pretty';

export interface Logger {
  debug(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
  /** A logger whose lines all carry these fields (a request id, say). */
  child(fields: Record<string, unknown>): Logger;
  /** Whether a level is written at all, to skip building a costly line. */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
  /** Resolves once every line logged so far has been written out. */
  flush(): Promise<void>;
}

/** Field names whose values are never written, down to the third level (`req.headers.cookie`). */
const SECRET_FIELDS = new Set(['password', 'Password', 'token', 'Token', 'accesstoken', 'authorization', 'cookie', 'secret', 'apiKey']);
const CENSOR = '[redacted]';
const SECRET_DEPTH = 3;

/**
 * `value` with every field named like a secret censored, at levels `depth` to SECRET_DEPTH: the
 * same object when it holds none (the usual case: a request line's five fields cost a glance),
 * else a copy, so that the caller's objects stay as they were. An Error is serialized first to
 * keep its message and stack. (pino's path-based `redact` did the same at about 13 µs a line.)
 */
function censored(value: unknown, depth: number): unknown {
  if (depth > SECRET_DEPTH || value === null || typeof value !== 'object') return value;
  let copy: Record<string, unknown> | undefined;
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    const field = fields[key];
    const written = SECRET_FIELDS.has(key) ? CENSOR : censored(field, depth + 1);
    if (written !== field) {
      copy ??=
        value instanceof Error ? { ...stdSerializers.err(value) } : Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...fields };
      copy[key] = written;
    }
  }
  return copy ?? value;
}

export interface LoggerOptions {
  format?: LogFormat;
  /** Where lines go (tests); stdout by default. Each call gets one whole line without its newline. */
  write?: (line: string) => void;
  /** At most this many bytes wait for a slow reader of stdout (BUFFER_LIMIT by default). */
  bufferLimit?: number;
}

/** The default format: JSON unless stdout is a terminal. */
function defaultLogFormat(): LogFormat {
  return process.stdout.isTTY ? 'pretty' : 'json';
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OWN_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err']);

/** One JSON line as a person reads it: time, level, message, then the other fields as key=value. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString() : '';
  const fields = Object.entries(entry)
    .filter(([name]) => !OWN_FIELDS.has(name))
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const error = entry.err as { stack?: string; message?: string } | undefined;
  const tail = error ? `\n${error.stack ?? error.message ?? ''}` : '';
  return `${time} ${LEVEL_NAMES[entry.level as number] ?? entry.level} ${entry.msg ?? ''}${fields.length ? ` ${fields.join(' ')}` : ''}${tail}`;
}

/** Buffered bytes are written once this many have gathered (below PIPE_BUF, 4096 on Linux)... */
const MIN_WRITE = 2048;
/** ...in writes of at most this many, whole lines each: atomic on a pipe shared by workers. */
const MAX_WRITE = 4096;
/** ...and at least this often, so that a quiet portal's lines are not held back. */
const FLUSH_INTERVAL_MS = 100;
/**
 * Lines waiting for stdout's reader, at most: a reader that stops (a stuck log shipper, a paused
 * terminal) costs lines, not the process's memory. What is dropped is counted in a warning once
 * the reader has caught up.
 */
const BUFFER_LIMIT = 16 * 1024 * 1024;
/** How long `flush()` waits for a stalled reader before writing synchronously. */
const FLUSH_TIMEOUT_MS = 2000;

interface Output {
  flush(): Promise<void>;
}

const WRITTEN: Output = { flush: async () => {} };

function bufferedOutput(stream: ReturnType<typeof pinoDestination>): Output {
  return {
    flush: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          try {
            stream.flushSync();
          } catch {
            // The reader is gone: nothing more can be written.
          }
          resolve();
        }, FLUSH_TIMEOUT_MS);
        timer.unref();
        stream.flush(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

function adapt(base: Pino, output: Output): Logger {
  const at =
    (name: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, detail?: unknown): void => {
      if (!base.isLevelEnabled(name)) return;
      if (detail === undefined) base[name](message);
      else if (detail instanceof Error) base[name](censored({ err: detail }, 1) as object, message);
      else if (detail !== null && typeof detail === 'object' && !Array.isArray(detail)) base[name](censored(detail, 1) as object, message);
      else base[name](censored({ detail }, 1) as object, message);
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => adapt(base.child(censored(fields, 1) as Record<string, unknown>), output),
    enabled: (level) => base.isLevelEnabled(level),
    flush: output.flush,
  };
}

/**
 * A logger at `level`. The second argument may be the old line sink (a function), kept so that
 * tests can collect the lines.
 */
export function createLogger(level: LogLevel, options: LoggerOptions | LoggerOptions['write'] = {}): Logger {
  const { format = defaultLogFormat(), write, bufferLimit = BUFFER_LIMIT } = typeof options === 'function' ? { write: options } : options;
  let destination: { write(chunk: string): void };
  let output = WRITTEN;
  if (level === 'silent') {
    // Nothing is ever written: no buffer, no timer.
    destination = { write: () => {} };
  } else if (write) {
    destination = {
      write(chunk: string) {
        const line = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
        write(format === 'pretty' ? prettyLine(line) : line);
      },
    };
  } else {
    const stream = pinoDestination({
      dest: 1,
      sync: false,
      minLength: MIN_WRITE,
      maxWrite: MAX_WRITE,
      maxLength: bufferLimit,
      periodicFlush: FLUSH_INTERVAL_MS,
    });
    output = bufferedOutput(stream);
    let dropped = 0;
    stream.on('drop', () => dropped++);
    // 'drain': the buffer is empty again after the reader fell behind.
    stream.on('drain', () => {
      if (dropped === 0) return;
      base.warn({ dropped }, 'log lines dropped: the reader of standard output did not keep up');
      dropped = 0;
    });
    destination =
      format === 'pretty' ? { write: (chunk: string) => stream.write(`${prettyLine(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk)}\n`) } : stream;
  }
  const base: Pino = pino(
    {
      level,
      base: { pid: process.pid },
      serializers: { err: stdSerializers.err },
    },
    destination,
  );
  return adapt(base, output);
}
