import { byteSizeProblem, integerInRange, snakeCaseTable, unknownSettingMessage } from '@hookline/core/plugin';
import * as v from 'valibot';

/**
 * The settings of the bubblewrap sandbox as data: what `bubblewrapSandbox()` takes besides its
 * callbacks, and — spelled snake_case (`kill_grace_ms`) — what `[sandbox.bubblewrap]` holds in
 * `hookline.toml`.
 */
export interface BubblewrapSettingsData {
  /** `"none"` (default): a network namespace with only its own loopback; `"host"`: the host's network. */
  readonly network?: 'none' | 'host';
  /** Host paths bound read-write at the same place, besides the hook's working directory. */
  readonly writable?: readonly string[];
  /** Host paths bound read-only at the same place, besides the system directories. */
  readonly readable?: readonly string[];
  /** Folder relative `writable` and `readable` paths are resolved against; default the working directory at `bubblewrapSandbox()`. */
  readonly baseDir?: string;
  /** Maximum number of processes of one hook, where the host delegates cgroup v2; default 256. */
  readonly pids?: number;
  /** Memory limit of one hook, in bytes or as `"512m"`, where the host delegates cgroup v2; default 512 MiB. */
  readonly memory?: number | string;
  /** The bwrap program: a path, or a name looked up on PATH; default `bwrap`. */
  readonly bwrap?: string;
  /** Time between SIGTERM to the hook's processes and the end of its sandbox; default 2 000 ms. */
  readonly killGraceMs?: number;
  /** Capture cap per stream for execs that set none; default 1 MiB. */
  readonly maxOutputBytes?: number;
}

const KEYS = [
  'network',
  'writable',
  'readable',
  'baseDir',
  'pids',
  'memory',
  'bwrap',
  'killGraceMs',
  'maxOutputBytes',
] as const satisfies ReadonlyArray<keyof BubblewrapSettingsData>;

// The kernel refuses a memory.max below what the cgroup already uses; 4 MiB leaves a shell room to start.
const MIN_MEMORY = 4 * 1024 * 1024;

const integer = (min: number, max: number, unit: string) =>
  integerInRange(min, max, `must be an integer from ${min} to ${max} (${unit})`);
const paths = (what: string) =>
  v.array(
    v.pipe(
      v.string(`must be a string (${what})`),
      v.regex(/\S/, `must not be empty (${what})`),
      v.check((path) => !path.includes('\0'), 'must not contain a NUL byte'),
      v.check((path) => path.replace(/\/+$/, '') !== '', 'must not be / (the whole filesystem would be bound)'),
    ),
    `must be an array of paths (${what})`,
  );

/**
 * valibot schema of {@link BubblewrapSettingsData}: validates `[sandbox.bubblewrap]` (the CLI) and
 * the data part of `bubblewrapSandbox()`'s settings, one issue per problem, with a suggestion for a
 * mistyped key.
 */
export const bubblewrapSettingsSchema = v.strictObject(
  {
    network: v.optional(
      v.picklist(['none', 'host'], 'must be "none" (no network, the default) or "host" (the host\'s network)'),
    ),
    writable: v.optional(paths('host paths the hook may write, bound at the same place')),
    readable: v.optional(paths('host paths the hook may read, bound read-only at the same place')),
    baseDir: v.optional(v.pipe(v.string('must be a string'), v.regex(/\S/, 'must not be empty'))),
    pids: v.optional(integer(8, 4_194_304, 'processes of one hook')),
    memory: v.optional(
      v.pipe(
        v.union([v.number(), v.string()], 'must be a number of bytes or a size such as "512m" or "1g"'),
        v.check(
          (value) => sizeProblem(value) === undefined,
          (issue) => sizeProblem(issue.input) ?? '',
        ),
      ),
    ),
    bwrap: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/\S/, 'must not be empty (the bwrap program, e.g. "/usr/bin/bwrap")'),
      ),
    ),
    killGraceMs: v.optional(integer(0, 60_000, 'milliseconds')),
    maxOutputBytes: v.optional(integer(1, 67_108_864, 'bytes per stream')),
  },
  unknownSettingMessage(KEYS, 'bubblewrap sandbox'),
);

function sizeProblem(value: number | string): string | undefined {
  return byteSizeProblem(value, MIN_MEMORY, '4 MiB');
}

/**
 * `[sandbox.bubblewrap]`: {@link bubblewrapSettingsSchema} with snake_case keys (`base_dir`,
 * `kill_grace_ms`), the camelCase ones accepted with a deprecation warning. The loader validates it;
 * `bubblewrapSandbox` gets the result in its own spelling.
 */
export const bubblewrapSettingsTable = snakeCaseTable(
  'sandbox.bubblewrap',
  'Settings of the bubblewrap sandbox provider: network, the paths a hook may read and write, and limits.',
  bubblewrapSettingsSchema,
);
