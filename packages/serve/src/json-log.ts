/** Where the daemon's log lines go (stdout in the foreground, the log file when detached). */
export interface LogSink {
  write(text: string): unknown;
}

/** One structured log line's fields besides its time, level and message. */
export type LogFields = Readonly<Record<string, unknown>>;

/** The daemon's structured log: one JSON object per line (`time`, `level`, `msg`, then the fields). */
export interface JsonLog {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** A log writing JSON lines to `sink`; `now` is injectable for tests. */
export function jsonLog(sink: LogSink, now: () => Date = () => new Date()): JsonLog {
  const line = (level: string, msg: string, fields: LogFields = {}) =>
    sink.write(`${JSON.stringify({ time: now().toISOString(), level, msg, ...fields })}\n`);
  return {
    info: (msg, fields) => line('info', msg, fields),
    warn: (msg, fields) => line('warn', msg, fields),
    error: (msg, fields) => line('error', msg, fields),
  };
}
