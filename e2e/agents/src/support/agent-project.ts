import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The package's node_modules/.bin: the real agent binaries and the workspace's built `hookline`. */
export const BIN = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));
export const HOOKLINE = join(BIN, 'hookline');

/**
 * Whether an agent's tests must run: in CI, or when `HOOKLINE_REQUIRE_<NAME>=1` insists. Elsewhere
 * they skip, saying why, when the binary cannot run on the platform.
 */
export function agentRequired(name: string): boolean {
  return process.env['CI'] === 'true' || process.env[`HOOKLINE_REQUIRE_${name.toUpperCase()}`] === '1';
}

/** Why `binary --version` fails on this platform; undefined when it runs. */
export function binaryProblem(binary: string): string | undefined {
  // Generous: Gemini CLI loads its whole bundle for --version, and suites probe at once on a loaded machine.
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 180_000 });
  if (probe.error !== undefined) return `\`${binary} --version\` could not start: ${probe.error.message}`;
  if (probe.status !== 0) return `\`${binary} --version\` exited ${probe.status}: ${probe.stderr.trim()}`;
  return undefined;
}

/** A project folder and a home of its own, for one agent run. */
export interface AgentProject {
  readonly dir: string;
  readonly home: string;
  /** The environment the agent runs with: only what it needs, `hookline` on PATH. */
  readonly env: Record<string, string>;
  /** Runs `hookline <args>` in the project, as a user would. */
  hookline(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  remove(): void;
}

/** A temporary project holding `files` (relative path → text), its home holding `homeFiles`. */
export function agentProject(
  prefix: string,
  files: Readonly<Record<string, string>>,
  homeFiles: Readonly<Record<string, string>>,
  env: (paths: { readonly dir: string; readonly home: string }) => Record<string, string>,
): AgentProject {
  const root = mkdtempSync(join(tmpdir(), `hookline-${prefix}-`));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  for (const [base, entries] of [
    [dir, files],
    [home, homeFiles],
  ] as const) {
    mkdirSync(base, { recursive: true });
    for (const [path, text] of Object.entries(entries)) {
      mkdirSync(join(base, path, '..'), { recursive: true });
      writeFileSync(join(base, path), text);
    }
  }
  const environment = {
    PATH: `${BIN}${delimiter}${process.env['PATH'] ?? ''}`,
    HOME: home,
    // The user layer of Hookline's config is looked up under XDG_CONFIG_HOME: keep it in the temp HOME.
    XDG_CONFIG_HOME: join(home, '.config'),
    NO_COLOR: '1',
    // The agents written in JavaScript (Gemini CLI's bundle) compile their code once for all the tests,
    // not at every start; the cache holds V8's compiled code and nothing the agent decides with.
    NODE_COMPILE_CACHE: join(tmpdir(), 'hookline-e2e-compile-cache'),
    ...env({ dir, home }),
  };
  return {
    dir,
    home,
    env: environment,
    hookline: (...args) => run(HOOKLINE, args, { cwd: dir, env: environment, timeout: 60_000 }),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
