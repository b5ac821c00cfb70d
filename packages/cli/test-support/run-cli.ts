import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI: tests run it as a real process, the way users do. */
export const CLI = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/**
 * The state folder of every CLI this test file starts (XDG_STATE_HOME): the journal key is made
 * there, never in the machine's own ~/.local/state, and shared by the file's processes — as one
 * user's processes share one key.
 */
export const CLI_STATE_HOME = mkdtempSync(join(tmpdir(), 'hookline-cli-state-'));

/** How a CLI process ended. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  readonly cwd: string;
  /** Written to stdin, which is then closed; stdin is closed at once when absent. */
  readonly input?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Node options for the CLI process, e.g. `--import` of a loader hook. */
  readonly nodeOptions?: readonly string[];
  /** The CLI script to run instead of the workspace's build, e.g. one from `installCliAlone`. */
  readonly cli?: string;
}

/**
 * Runs `node dist/bin.js …args` and collects its output. The user config layer points into the
 * scratch folder (XDG_CONFIG_HOME), so the machine's own ~/.config never leaks into a test.
 */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  const child = startCli(args, options);
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(options.input);
  return finished(child);
}

/** Starts the CLI and returns the child, for tests that signal it or stream to it. */
export function startCli(args: readonly string[], options: RunOptions): ChildProcess {
  // vitest may set FORCE_COLOR; the CLI's output is checked without colors.
  const { FORCE_COLOR: _ignored, ...inherited } = process.env;
  return spawn(process.execPath, [...(options.nodeOptions ?? []), options.cli ?? CLI, ...args], {
    cwd: options.cwd,
    env: {
      ...inherited,
      NO_COLOR: '1',
      XDG_CONFIG_HOME: join(options.cwd, '.xdg'),
      XDG_STATE_HOME: CLI_STATE_HOME,
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Collects a started child's output until it exits (its stdin is the caller's to write and close). */
export function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A scratch folder for one test: files written relative to it, removed by `cleanup`. */
export interface Scratch {
  readonly path: string;
  write(name: string, text: string): string;
  cleanup(): void;
}

/** Makes a scratch folder under the system temp directory (never inside the repository). */
export function makeScratch(): Scratch {
  const path = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-cli-test-')));
  return {
    path,
    write(name, text) {
      const file = join(path, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    cleanup: () => rmSync(path, { recursive: true, force: true }),
  };
}
