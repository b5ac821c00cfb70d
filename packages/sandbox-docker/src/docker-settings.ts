import { byteSizeProblem, integerInRange, snakeCaseTable, unknownSettingMessage } from '@hookline/core/plugin';
import * as v from 'valibot';
import { parseMount } from './parse-mount.ts';

/**
 * The settings of the docker sandbox as data: what `dockerSandbox()` takes besides its callbacks, and
 * — spelled snake_case (`read_only`, `docker_host`) — what `[sandbox.docker]` holds in `hookline.toml`.
 * Every hardening default can be overridden here; limits can be changed but not switched off.
 */
export interface DockerSettingsData {
  /** The image every run's container starts from; default `busybox:stable`. Never pulled automatically. */
  readonly image?: string;
  /**
   * Host folders to bind into the container, as `"host:container[:ro|rw]"` (read-only unless `:rw`).
   * A relative host path is resolved against `baseDir`.
   */
  readonly mounts?: readonly string[];
  /** Folder relative mount sources are resolved against; default the working directory at `dockerSandbox()`. */
  readonly baseDir?: string;
  /** Working directory of hooks without a context `cwd`; default the first mount's target, else `/tmp`. */
  readonly workdir?: string;
  /** Variables every process in the container gets (on top of the image's); the host's are never passed. */
  readonly env?: Readonly<Record<string, string>>;
  /** Docker network mode; default `none` (no network at all). */
  readonly network?: string;
  /** Memory limit, in bytes or as `"512m"`, `"1g"`, `"256MiB"`; default 512 MiB. Swap is the same (none extra). */
  readonly memory?: number | string;
  /** Maximum number of processes in the container; default 256. */
  readonly pids?: number;
  /** CPUs the container may use (fractions allowed); default 1. */
  readonly cpus?: number;
  /** `uid[:gid]` or a user name of the image; default `65534:65534` (nobody). */
  readonly user?: string;
  /** Read-only root filesystem; default `true`. */
  readonly readOnly?: boolean;
  /** tmpfs mounts by container path, merged over the default `{"/tmp": "rw,nosuid,nodev,noexec,size=64m,mode=1777"}`. */
  readonly tmpfs?: Readonly<Record<string, string>>;
  /** Capabilities added back after dropping all; default none. */
  readonly capAdd?: readonly string[];
  /** Forbid gaining privileges (setuid binaries, file capabilities); default `true`. */
  readonly noNewPrivileges?: boolean;
  /** Run Docker's init as PID 1, which reaps orphans; default `true`. */
  readonly init?: boolean;
  /** The engine: `unix:///path` or `tcp://host:port`; default `DOCKER_HOST`, else the local socket. */
  readonly dockerHost?: string;
  /** Time between SIGTERM and SIGKILL when a hook is stopped; default 2 000 ms. */
  readonly killGraceMs?: number;
  /** Capture cap per stream for execs that set none; default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Remove containers of dead Hookline processes when the provider first opens a run; default `true`. */
  readonly pruneOrphans?: boolean;
}

const KEYS = [
  'image',
  'mounts',
  'baseDir',
  'workdir',
  'env',
  'network',
  'memory',
  'pids',
  'cpus',
  'user',
  'readOnly',
  'tmpfs',
  'capAdd',
  'noNewPrivileges',
  'init',
  'dockerHost',
  'killGraceMs',
  'maxOutputBytes',
  'pruneOrphans',
] as const satisfies ReadonlyArray<keyof DockerSettingsData>;

// Docker refuses less than 6 MiB; the upper bounds only catch typos (a value in KiB taken as bytes, …).
const MIN_MEMORY = 6 * 1024 * 1024;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(?::[A-Za-z0-9_][A-Za-z0-9_.-]*)?$/;
const CAPABILITY = /^(?:CAP_)?[A-Z_]+$/;

const text = (what: string) =>
  v.pipe(v.string(`must be a string (${what})`), v.regex(/\S/, `must not be empty (${what})`));
const absolutePath = (what: string) =>
  v.pipe(
    v.string(`must be a string (${what})`),
    v.regex(/^\//, `must be an absolute path inside the container (${what})`),
  );
const integer = (min: number, max: number, unit: string) =>
  integerInRange(min, max, `must be an integer from ${min} to ${max} (${unit})`);

/**
 * valibot schema of {@link DockerSettingsData}: validates `[sandbox.docker]` (the CLI) and the data
 * part of `dockerSandbox()`'s settings, with one issue per problem and a suggestion for a mistyped key.
 */
export const dockerSettingsSchema = v.strictObject(
  {
    image: v.optional(text('an image name such as "busybox:stable"')),
    mounts: v.optional(
      v.array(
        v.pipe(
          v.string('must be a string "host:container[:ro|rw]"'),
          v.check(
            (mount) => typeof parseMount(mount, '/') !== 'string',
            (issue) => {
              const problem = parseMount(issue.input, '/');
              return typeof problem === 'string' ? problem : 'is not a valid mount';
            },
          ),
        ),
        'must be an array of "host:container[:ro|rw]" strings',
      ),
    ),
    baseDir: v.optional(text('the folder relative mount sources are resolved against')),
    workdir: v.optional(absolutePath('the working directory of hooks')),
    env: v.optional(
      v.pipe(
        v.record(
          v.pipe(v.string(), v.regex(ENV_NAME, 'is not a valid variable name')),
          v.string('must be a string'),
          'must be a table of NAME = "value"',
        ),
      ),
    ),
    network: v.optional(text('a Docker network mode: "none", "bridge", "host" or a network name')),
    memory: v.optional(
      v.pipe(
        v.union([v.number(), v.string()], 'must be a number of bytes or a size such as "512m" or "1g"'),
        v.check(
          (value) => sizeProblem(value) === undefined,
          (issue) => sizeProblem(issue.input) ?? '',
        ),
      ),
    ),
    pids: v.optional(integer(8, 4_194_304, 'processes; the hook, its children and the container’s init all count')),
    cpus: v.optional(
      v.pipe(
        v.number('must be a number of CPUs such as 1 or 0.5'),
        v.minValue(0.01, 'must be at least 0.01'),
        v.maxValue(1024, 'must be at most 1024'),
      ),
    ),
    user: v.optional(
      v.pipe(
        v.string('must be a string "uid[:gid]" or a user name'),
        v.regex(USER, 'must be "uid[:gid]" or a user name, e.g. "65534:65534"'),
      ),
    ),
    readOnly: v.optional(v.boolean('must be true or false')),
    tmpfs: v.optional(
      v.record(
        v.pipe(v.string(), v.regex(/^\//, 'must be an absolute path inside the container')),
        v.string('must be a string of mount options, e.g. "rw,nosuid,nodev,noexec,size=64m,mode=1777"'),
        'must be a table of "/path" = "options"',
      ),
    ),
    capAdd: v.optional(
      v.array(
        v.pipe(v.string(), v.regex(CAPABILITY, 'must be a capability name such as "NET_BIND_SERVICE"')),
        'must be an array of capability names',
      ),
    ),
    noNewPrivileges: v.optional(v.boolean('must be true or false')),
    init: v.optional(v.boolean('must be true or false')),
    dockerHost: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(
          /^(?:unix:\/\/\/.+|tcp:\/\/[^/]+:\d+\/?)$/,
          'must be "unix:///path/to/docker.sock" or "tcp://host:port"',
        ),
      ),
    ),
    killGraceMs: v.optional(integer(0, 60_000, 'milliseconds')),
    maxOutputBytes: v.optional(integer(1, 67_108_864, 'bytes per stream')),
    pruneOrphans: v.optional(v.boolean('must be true or false')),
  },
  unknownSettingMessage(KEYS, 'docker sandbox'),
);

function sizeProblem(value: number | string): string | undefined {
  return byteSizeProblem(value, MIN_MEMORY, "6 MiB (Docker's minimum)");
}

/**
 * `[sandbox.docker]`: {@link dockerSettingsSchema} with snake_case keys (`read_only`, `cap_add`), the
 * camelCase ones accepted with a deprecation warning. The loader validates it; `dockerSandbox` gets
 * the result in its own spelling.
 */
export const dockerSettingsTable = snakeCaseTable(
  'sandbox.docker',
  'Settings of the docker sandbox provider: the image, mounts and the hardening, all of which have safe defaults.',
  dockerSettingsSchema,
);
