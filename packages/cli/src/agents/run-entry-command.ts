import { spawn } from 'node:child_process';
import type { WireAnswer } from '@hookline/core';

/** How the agent would run an entry's command: its shell, folder, environment and timeout. */
export interface EntryRun {
  readonly shell: string;
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: string;
  readonly timeoutMs: number;
}

/** What the command did: its answer, and whether it ran past the timeout (its process group is then killed). */
export interface EntryResult {
  readonly answer: WireAnswer;
  readonly timedOut: boolean;
  /** Set when the shell itself could not start. */
  readonly spawnError?: string;
}

/** Runs an entry's command line as the agent would, `{shell} -c command` with the payload on stdin. */
export function runEntryCommand(run: EntryRun): Promise<EntryResult> {
  return new Promise((resolve) => {
    const child = spawn(run.shell, ['-c', run.command], {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.stdin);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, run.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ answer: { exitCode: 127, stdout, stderr }, timedOut, spawnError: error.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid);
      resolve({ answer: { exitCode: code ?? (signal === null ? 1 : 128), stdout, stderr }, timedOut });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
