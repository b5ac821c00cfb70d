// The resident spawner: processes forked from a small helper process instead of this one, with the
// same results, errors and process-group handling as an in-process spawn; a spawner that dies fails
// what it was running and is replaced; a host that ends takes its spawner with it.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import type { ExecRequest, ExecResult } from '@hookline/core/plugin';
import { CommandStartError } from './command-start-error.ts';
import { residentSpawner, useResidentSpawner } from './resident-spawner-switch.ts';
import { runProcess, type ProcessSettings } from './run-process.ts';
import { isRunning, runningGroupMembers, waitFor } from '../test-support/processes.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();
const settings: ProcessSettings = {
  environment: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  killGraceMs: 2_000,
  maxOutputBytes: 1 << 20,
};
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');
const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;
const readPid = (path: string): number => Number(readFileSync(path, 'utf8').trim());
const written = (path: string) => () => existsSync(path) && readFileSync(path, 'utf8').endsWith('\n');

// Whether the switch was on when this file started (`pnpm test:resident-spawner` turns it on for
// every file): tests that turn it on or off leave it as they found it.
const switchedOn = residentSpawner() !== undefined;

/** Runs `request` through the spawner (switched on for this call only). */
async function viaSpawner(request: ExecRequest, overrides: Partial<ProcessSettings> = {}): Promise<ExecResult> {
  useResidentSpawner(true);
  try {
    return await runProcess(request, { ...settings, ...overrides });
  } finally {
    useResidentSpawner(switchedOn);
  }
}

/** The pid of the spawner that runs now, if one does. */
function currentSpawner(): number | undefined {
  useResidentSpawner(true);
  const pid = residentSpawner()?.pid;
  useResidentSpawner(switchedOn);
  return pid;
}

/** The spawner's pid; it is started on first use. */
async function spawnerPid(): Promise<number> {
  await viaSpawner({ command: 'true' });
  return currentSpawner()!;
}

/** How many threads `pid` has left (0 once it is reaped). */
function threads(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).length;
  } catch {
    return 0;
  }
}

/** Why `work` rejected. */
async function failure(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => undefined,
    (error: unknown) => error,
  );
}

afterEach(() => useResidentSpawner(switchedOn));

describe('a process started through the spawner', () => {
  test('is the spawner’s child, not this process’s, and in a group and session of its own', async () => {
    const spawner = await spawnerPid();
    const result = await viaSpawner({ command: 'echo "$PPID $$ $(ps -o pgid= -p $$) $(ps -o sid= -p $$)"' });
    const [parent, pid, group, session] = text(result.stdout).trim().split(/\s+/).map(Number);
    expect(parent).toBe(spawner);
    expect(parent).not.toBe(process.pid);
    expect(group).toBe(pid);
    expect(session).toBe(pid);
  });

  test('with the switch off, processes are this process’s children again', async () => {
    await spawnerPid();
    useResidentSpawner(false);
    const result = await runProcess({ command: 'echo $PPID' }, settings);
    expect(Number(text(result.stdout))).toBe(process.pid);
  });

  test('stdout, stderr and the exit code come back; stdin is fed and closed', async () => {
    const result = await viaSpawner({ command: 'cat; echo " out"; echo err >&2; exit 3', stdin: 'from stdin' });
    expect(text(result.stdout)).toBe('from stdin out\n');
    expect(text(result.stderr)).toBe('err\n');
    expect(result.exitCode).toBe(3);
    expect(result.signal).toBeNull();
    expect(result.aborted).toBe(false);
    expect(result.stdoutTruncated).toBe(false);
  });

  test('stdin given as bytes arrives byte for byte', async () => {
    const bytes = Uint8Array.from([0, 1, 2, 250, 255, 10]);
    const result = await viaSpawner({ command: 'od -An -tu1 -v', stdin: bytes });
    expect(text(result.stdout).trim().split(/\s+/).map(Number)).toEqual([...bytes]);
  });

  test('a process that never reads its stdin is fine', async () => {
    const result = await viaSpawner({ command: 'exit 0', stdin: 'x'.repeat(1 << 20) });
    expect(result.exitCode).toBe(0);
  });

  test('a signal that ends the process is reported', async () => {
    const result = await viaSpawner({ command: 'kill -USR1 $$' });
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGUSR1');
  });

  test('gets the environment and working directory asked for, SHLVL=1 when unset', async () => {
    const result = await viaSpawner({
      command: 'echo "$GREETING|$SHLVL|$(pwd)"',
      env: { GREETING: 'hello there' },
      cwd: scratch(),
    });
    expect(text(result.stdout)).toBe(`hello there|1|${scratch()}\n`);
  });

  test('output is capped per stream and flagged, and the process still runs to its end', async () => {
    const result = await viaSpawner(
      { command: 'head -c 100000 /dev/zero; head -c 10 /dev/zero >&2; echo done >&2', maxOutputBytes: 1000 },
      { maxOutputBytes: 50 },
    );
    expect(result.stdout.length).toBe(1000);
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stderr.length).toBe(15);
    expect(text(result.stderr).endsWith('done\n')).toBe(true);
    expect(result.stderrTruncated).toBe(false);
    expect(result.exitCode).toBe(0);
  });

  test('output of exactly the cap is not flagged', async () => {
    const result = await viaSpawner({ command: 'printf 12345', maxOutputBytes: 5 });
    expect(text(result.stdout)).toBe('12345');
    expect(result.stdoutTruncated).toBe(false);
  });

  test('a flood far past the cap is drained without killing the process', async () => {
    const result = await viaSpawner({ command: 'yes | head -c 30000000; echo finished >&2' });
    expect(result.stdout.length).toBe(1 << 20);
    expect(result.stdoutTruncated).toBe(true);
    expect(text(result.stderr)).toBe('finished\n');
    expect(result.exitCode).toBe(0);
  });

  test('onStarted gets the pid, the process group’s id, while the process runs', async () => {
    const pidFile = join(scratch(), 'pid');
    const release = join(scratch(), 'release');
    let started: number | undefined;
    let runningWhenTold = false;
    const work = viaSpawner({
      command: `echo $$ > ${quote(pidFile)}; while [ ! -e ${quote(release)} ]; do sleep 0.01; done`,
      onStarted: async (pid) => {
        started = pid;
        runningWhenTold = isRunning(pid);
        return true;
      },
    });
    expect(await waitFor(written(pidFile), 10_000)).toBe(true);
    // The spawner's "started" message can arrive after the process has already written its pid: what
    // matters is that it arrives while the process runs (it waits for `release`).
    expect(await waitFor(() => started !== undefined, 10_000)).toBe(true);
    expect(started).toBe(readPid(pidFile));
    expect(runningWhenTold).toBe(true);
    writeFileSync(release, '');
    expect((await work).exitCode).toBe(0);
  });

  test('many processes at once all run and keep their own output', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) => viaSpawner({ command: `cat; echo ${index}`, stdin: `in-${index} ` })),
    );
    results.forEach((result, index) => expect(text(result.stdout)).toBe(`in-${index} ${index}\n`));
  });
});

describe('start failures', () => {
  const nonExecutable = (): string => {
    const file = join(scratch(), 'not-executable');
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o644);
    return file;
  };
  const cases: ReadonlyArray<{ name: string; request: () => ExecRequest; overrides?: Partial<ProcessSettings> }> = [
    { name: 'a missing working directory', request: () => ({ command: 'true', cwd: join(scratch(), 'gone') }) },
    { name: 'a working directory that is a file', request: () => ({ command: 'true', cwd: nonExecutable() }) },
    { name: 'a program not on PATH', request: () => ({ command: ['no-such-program-hookline'] }) },
    { name: 'a missing program by path', request: () => ({ command: [join(scratch(), 'missing')] }) },
    { name: 'a program that is not executable', request: () => ({ command: [nonExecutable()] }) },
    { name: 'a NUL byte in the command', request: () => ({ command: 'echo a\0b' }) },
    {
      name: 'no PATH at all',
      request: () => ({ command: ['no-such-program-hookline'] }),
      overrides: { environment: {} },
    },
  ];

  test.each(cases)('$name: the same CommandStartError as an in-process spawn', async ({ request, overrides = {} }) => {
    useResidentSpawner(false);
    const here = await failure(runProcess(request(), { ...settings, ...overrides }));
    const there = await failure(viaSpawner(request(), overrides));
    expect(here).toBeInstanceOf(CommandStartError);
    expect(there).toBeInstanceOf(CommandStartError);
    expect((there as CommandStartError).message).toBe((here as CommandStartError).message);
    expect((there as CommandStartError).code).toBe('HOOKLINE_COMMAND_START_FAILED');
  });

  test('onStarted is not called for a process that never started', async () => {
    let told = false;
    // A missing working directory: not even the start gate's shell starts. (A gated exec-form
    // command whose program is missing starts the gate, which then fails as `sh` does: exit 127.)
    await failure(viaSpawner({ command: 'true', cwd: join(scratch(), 'gone'), onStarted: async () => (told = true) }));
    expect(told).toBe(false);
  });
});

describe('the start gate, through the spawner', () => {
  test('the command waits for the record, then runs as the recorded pid, the spawner’s child', async () => {
    const marker = join(scratch(), 'ran');
    const spawner = await spawnerPid();
    let recorded!: (go: boolean) => void;
    let told = 0;
    const work = viaSpawner({
      command: `echo $$ $PPID > ${quote(marker)}`,
      onStarted: (pid) => {
        told = pid;
        return new Promise<boolean>((resolve) => (recorded = resolve));
      },
    });
    expect(await waitFor(() => told !== 0, 10_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(marker)).toBe(false);
    expect(isRunning(told)).toBe(true);
    recorded(true);
    expect((await work).exitCode).toBe(0);
    expect(readFileSync(marker, 'utf8').trim().split(' ').map(Number)).toEqual([told, spawner]);
  });

  test('an entry no longer held: the command never runs and the hook fails saying why', async () => {
    const marker = join(scratch(), 'ran');
    const failed = await failure(viaSpawner({ command: `touch ${quote(marker)}`, onStarted: async () => false }));
    expect(CommandStartError.isInstance(failed)).toBe(true);
    expect((failed as CommandStartError).message).toContain('no longer held by this engine');
    expect(existsSync(marker)).toBe(false);
  });

  test('a record that fails opens the gate all the same: the hook runs', async () => {
    const marker = join(scratch(), 'ran');
    const result = await viaSpawner({
      command: `touch ${quote(marker)}`,
      onStarted: () => Promise.reject(new Error('journal down')),
    });
    expect(result.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  test('a host killed before the record: its spawner goes, and the command never runs', async () => {
    const marker = join(scratch(), 'ran');
    const host = fileURLToPath(new URL('../test-support/gated-host.ts', import.meta.url));
    const child = spawn(process.execPath, [host, marker, 'spawner'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    expect(await waitFor(() => /started \d+ by \d+\n/.test(output), 20_000)).toBe(true);
    const [pid, spawner] = /started (\d+) by (\d+)/.exec(output)!.slice(1).map(Number) as [number, number];
    expect(spawner).not.toBe(child.pid);
    expect(isRunning(pid)).toBe(true);
    child.kill('SIGKILL');
    expect(await waitFor(() => !isRunning(pid) && !isRunning(spawner), 10_000)).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('process groups', () => {
  test('an abort ends the whole group: SIGTERM, and SIGKILL after the grace for what ignores it', async () => {
    const pidFile = join(scratch(), 'pid');
    const controller = new AbortController();
    const work = viaSpawner(
      {
        command: `echo $$ > ${quote(pidFile)}; (trap '' TERM; sleep 300) & sleep 300`,
        signal: controller.signal,
      },
      { killGraceMs: 300 },
    );
    expect(await waitFor(written(pidFile), 10_000)).toBe(true);
    const group = readPid(pidFile);
    controller.abort();
    const result = await work;
    expect(result.aborted).toBe(true);
    expect(result.signal).toBe('SIGTERM');
    expect(await waitFor(() => runningGroupMembers(group).length === 0, 10_000)).toBe(true);
  });

  test('what the process left in its group is ended when it exits; its held pipes do not hold the result', async () => {
    const leftover = join(scratch(), 'leftover');
    const quiet = join(scratch(), 'quiet');
    const mark = join(scratch(), 'mark');
    const result = await viaSpawner({
      // One leftover holds stdout (the drain gives up on it), one holds nothing.
      command: [
        `(sleep 20; touch ${quote(mark)}) & echo $! > ${quote(leftover)}`,
        `sleep 300 >/dev/null 2>&1 & echo $! > ${quote(quiet)}`,
        'echo answered',
      ].join('\n'),
    });
    expect(text(result.stdout)).toBe('answered\n');
    expect(result.exitCode).toBe(0);
    expect(existsSync(mark)).toBe(false);
    expect(await waitFor(() => !isRunning(readPid(leftover)) && !isRunning(readPid(quiet)), 10_000)).toBe(true);
  });

  test('a process that must be passed descriptors is spawned in-process, with them', async () => {
    const file = join(scratch(), 'passed');
    writeFileSync(file, 'through fd 3');
    const descriptor = openSync(file, 'r');
    try {
      await spawnerPid();
      const result = await viaSpawner({ command: 'cat <&3; echo " $PPID"' }, { passFds: [descriptor] });
      expect(text(result.stdout)).toBe(`through fd 3 ${process.pid}\n`);
    } finally {
      closeSync(descriptor);
    }
  });
});

describe('a spawner that dies', () => {
  test('fails the process it ran with a clear error, ends its group, and is replaced for the next one', async () => {
    const spawner = await spawnerPid();
    const pidFile = join(scratch(), 'pid');
    let told = false;
    const work = failure(
      viaSpawner({
        command: `echo $$ > ${quote(pidFile)}; sleep 300 & sleep 300`,
        onStarted: async () => (told = true),
      }),
    );
    // Killed once the host knows the process runs (the spawner's "started" may trail the pid file).
    expect(await waitFor(() => written(pidFile)() && told, 10_000)).toBe(true);
    const group = readPid(pidFile);
    process.kill(spawner, 'SIGKILL');
    const error = (await work) as { code?: string; message?: string };
    expect(error.code).toBe('HOOKLINE_COMMAND_SPAWNER_LOST');
    expect(error.message).toBe(
      `the process spawner (pid ${spawner}) was killed by SIGKILL while process ${group} ran: its output and exit status are lost, and its process group was ended; the next hook starts a new spawner`,
    );
    expect(await waitFor(() => runningGroupMembers(group).length === 0, 10_000)).toBe(true);

    const next = await viaSpawner({ command: 'echo $PPID' });
    const replacement = Number(text(next.stdout));
    expect(replacement).toBe(currentSpawner());
    expect(replacement).not.toBe(spawner);
    expect(replacement).not.toBe(process.pid);
  });

  test('a spawner that died unnoticed is replaced without failing the next process', async () => {
    const spawner = await spawnerPid();
    process.kill(spawner, 'SIGKILL');
    // Waited for without yielding to the event loop: this process has not seen the spawner's exit
    // or its closed channel when the next request is sent, so the request is refused, not lost. Dead
    // means every thread gone: the main thread can be a zombie while the others still hold the channel.
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (isRunning(spawner) || threads(spawner) > 1) Atomics.wait(pause, 0, 0, 5);
    const result = await viaSpawner({ command: 'echo $PPID' });
    expect(result.exitCode).toBe(0);
    const replacement = Number(text(result.stdout));
    expect(replacement).not.toBe(spawner);
    expect(replacement).toBe(currentSpawner());
  });
});

describe('the host’s end', () => {
  // A host of its own: switches the spawner on, starts a process through it, prints the spawner's
  // pid, and then exits at once (`exit`) or waits to be killed (`hang`).
  const host = fileURLToPath(new URL('../test-support/spawner-host.ts', import.meta.url));
  const startHost = (mode: 'exit' | 'hang') => {
    const child = spawn(process.execPath, [host, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    const spawner = new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const line = /spawner (\d+)\n/.exec(out);
        if (line !== null) resolve(Number(line[1]));
      });
      child.once('exit', () => reject(new CommandStartError(`the host exited before it told its spawner: ${out}`)));
    });
    const group = new Promise<number>((resolve) => {
      let out = '';
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        const line = /group (\d+)\n/.exec(out);
        if (line !== null) resolve(Number(line[1]));
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, spawner, group, exited };
  };

  test('a host that finishes its work exits (the idle spawner holds nothing) and its spawner goes too', async () => {
    const running = startHost('exit');
    const spawner = await running.spawner;
    expect(await running.exited).toBe(0);
    expect(await waitFor(() => !isRunning(spawner), 10_000)).toBe(true);
  });

  test('a host killed with SIGKILL while a process runs leaves no spawner behind', async () => {
    const running = startHost('hang');
    const spawner = await running.spawner;
    await running.group;
    expect(isRunning(spawner)).toBe(true);
    running.child.kill('SIGKILL');
    await running.exited;
    try {
      expect(await waitFor(() => !isRunning(spawner), 10_000)).toBe(true);
    } finally {
      // The process itself is left as an in-process spawn's would be (a journal ends such groups).
      for (const member of runningGroupMembers(await running.group)) process.kill(member.pid, 'SIGKILL');
    }
  });
});
