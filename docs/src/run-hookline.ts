import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The built `hookline` launcher of the workspace's `@hookline/cli`. */
export const HOOKLINE = join(
  dirname(createRequire(import.meta.url).resolve('@hookline/cli/package.json')),
  'bin',
  'hookline.js',
);

/** How a `hookline` process ended. */
export interface HooklineResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `hookline …args` as a user would, in `cwd`, without colors and with the user config layer
 * pointed into `cwd` (so the machine's own ~/.config never leaks in). `input` goes to stdin.
 */
export function runHookline(args: readonly string[], cwd: string, input = ''): Promise<HooklineResult> {
  const { FORCE_COLOR: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [HOOKLINE, ...args], {
    cwd,
    env: { ...inherited, NO_COLOR: '1', XDG_CONFIG_HOME: join(cwd, '.xdg') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `node file` in `cwd` (a documented program), its output collected. */
export function runNode(file: string, cwd: string): Promise<HooklineResult> {
  const child = spawn(process.execPath, [file], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
