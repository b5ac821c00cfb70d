// A durable hook's process runs its command only once the journal has recorded its group: behind a
// gate that opens on `true`, stays shut on `false`, and shuts for good when the starting process dies.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { CommandStartError } from './command-start-error.ts';
import { runProcess } from './run-process.ts';
import { quote } from '../test-support/hook-harness.ts';
import { isRunning, waitFor } from '../test-support/processes.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();
const settings = {
  environment: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  killGraceMs: 2_000,
  maxOutputBytes: 1024,
};

describe('the start gate of a process whose starter records it first', () => {
  test('the command waits until the record is made, then runs as the same process', async () => {
    const marker = join(scratch(), 'ran');
    let recorded!: (go: boolean) => void;
    let told = 0;
    const run = runProcess(
      {
        command: `echo $$ > ${quote(marker)}`,
        onStarted: (pid) => {
          told = pid;
          return new Promise<boolean>((resolve) => (recorded = resolve));
        },
      },
      settings,
    );
    expect(await waitFor(() => told !== 0, 10_000)).toBe(true);
    await delay(200);
    expect(existsSync(marker)).toBe(false);
    expect(isRunning(told)).toBe(true);
    recorded(true);
    const result = await run;
    expect(result.exitCode).toBe(0);
    // exec'd in place: the pid the journal recorded is the command's own.
    expect(Number(readFileSync(marker, 'utf8'))).toBe(told);
  });

  test('an entry no longer held: the command never runs and the hook fails saying why', async () => {
    const marker = join(scratch(), 'ran');
    const run = runProcess({ command: `touch ${quote(marker)}`, onStarted: async () => false }, settings);
    await expect(run).rejects.toSatisfy(
      (error: unknown) =>
        CommandStartError.isInstance(error) && error.message.includes('no longer held by this engine'),
    );
    expect(existsSync(marker)).toBe(false);
  });

  test('a journal that fails to record opens the gate all the same: the hook runs', async () => {
    const marker = join(scratch(), 'ran');
    const result = await runProcess(
      { command: `touch ${quote(marker)}`, onStarted: () => Promise.reject(new Error('journal down')) },
      settings,
    );
    expect(result.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  test('a starter killed before the record: the gated process ends and its command never runs', async () => {
    const marker = join(scratch(), 'ran');
    const host = fileURLToPath(new URL('../test-support/gated-host.ts', import.meta.url));
    const child = spawn(process.execPath, [host, marker], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    expect(await waitFor(() => /started \d+\n/.test(output), 20_000)).toBe(true);
    const pid = Number(/started (\d+)/.exec(output)![1]);
    expect(isRunning(pid)).toBe(true);
    child.kill('SIGKILL');
    expect(await waitFor(() => !isRunning(pid), 10_000)).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });
});
