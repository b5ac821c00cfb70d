import { appendFile, mkdir } from './promised-fs.ts';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { ExecResult } from '@hookline/core/plugin';
import { CommandStartError } from './command-start-error.ts';
import { decodeOutput } from './decode-output.ts';

/** With preset `task`, each command's output goes to `runs/<task>/hooks/<point>-NN.log`. */
export const DEFAULT_LOG_ROOT = 'runs';

// Long enough for any task id or hook name people write, short of the 255-byte file name limit.
const MAX_SEGMENT_LENGTH = 120;

/**
 * One path segment made from a host's value: characters other than letters, digits, `.`, `_` and
 * `-` become `_`, and a segment of dots only is rewritten, so a task id like `../x` or `a/b` can
 * never leave its directory (`.._x`, `a_b`).
 */
export function safePathSegment(value: string): string {
  let segment = value.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, MAX_SEGMENT_LENGTH);
  if (segment === '' || /^\.+$/.test(segment)) segment = segment.replaceAll('.', '_') || '_';
  return segment;
}

/**
 * Where a hook run's log goes: `<root>/<session key>/hooks/<hook name>.log`, the root resolved
 * against the process's working directory. Both parts are made safe path segments.
 */
export function commandLogPath(root: string, sessionKey: string, hookName: string): string {
  const base = resolve(root);
  const path = join(base, safePathSegment(sessionKey), 'hooks', `${safePathSegment(hookName)}.log`);
  // Belt and braces: the segments cannot climb, but a log must never land outside its root.
  const inside = relative(base, path);
  if (inside.startsWith(`..${sep}`) || inside === '..')
    throw new CommandStartError(`The log path ${path} is outside ${base}: name the hook and session without "..".`);
  return path;
}

/** What one run of a command hook leaves in its log. */
export interface CommandLogRecord {
  readonly hook: string;
  readonly event: string;
  readonly command: string;
  readonly started: Date;
  readonly durationMs: number;
  /** How it ended, in words: `exit 0`, `killed by SIGTERM`, `stopped: hook timed out after 5000 ms`, `failed: …`. */
  readonly ending: string;
  /** The process's result, when it ran. */
  readonly exec?: ExecResult;
}

/**
 * Appends one run to the hook's log (a point that fires again for the same task, or runs again after
 * a crash, adds a section instead of erasing the last one), making its folders first.
 */
export async function writeCommandLog(path: string, record: CommandLogRecord): Promise<void> {
  const lines = [
    `=== ${record.hook} (${record.event}) ${record.started.toISOString()}`,
    `command: ${record.command}`,
    `result: ${record.ending}`,
    `duration_ms: ${Math.round(record.durationMs * 10) / 10}`,
  ];
  const exec = record.exec;
  const text = `${lines.join('\n')}\n${exec === undefined ? '' : `${section('stdout', exec.stdout, exec.stdoutTruncated)}${section('stderr', exec.stderr, exec.stderrTruncated)}`}\n`;
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, text);
}

function section(name: string, bytes: Uint8Array, truncated: boolean): string {
  const text = decodeOutput(bytes);
  const body = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `--- ${name} ---\n${body}${truncated ? `[${name} was cut at ${bytes.length} bytes]\n` : ''}`;
}
