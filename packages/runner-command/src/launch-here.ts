import { spawn, type ChildProcessWithoutNullStreams, type StdioOptions } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { Ending, LaunchedProcess, LaunchSpec } from './launched-process.ts';
import { awaitRecord, gatedCommand, settleGate, type GateVerdict } from './start-gate.ts';

/** Spawns from this process: the default, and what needs descriptors passed (a sandbox's `--bind-fd`). */
export async function launchHere(spec: LaunchSpec): Promise<LaunchedProcess> {
  const passed = spec.passFds ?? [];
  const hold = spec.gate;
  const gate = hold === undefined ? undefined : gatedCommand(spec.file, spec.args, 3 + passed.length);
  // detached: the child calls setsid(), so its pid is the id of a new process group that we can signal as a whole.
  const stdio: StdioOptions =
    passed.length === 0 && gate === undefined
      ? 'pipe'
      : ['pipe', 'pipe', 'pipe', ...passed, ...(gate ? (['pipe'] as const) : [])];
  const child = spawn(gate?.file ?? spec.file, gate?.args ?? spec.args, {
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
    env: spec.env,
    detached: true,
    stdio,
  }) as ChildProcessWithoutNullStreams;

  // Told at once, before the child has run far: a journal records the group before a crash can leave
  // it behind unrecorded. Behind a gate the command waits for that record.
  let verdict: GateVerdict | undefined;
  if (child.pid !== undefined) {
    if (gate !== undefined && hold !== undefined) {
      const pipe = child.stdio[gate.fd] as Writable;
      // A gate whose process is gone already (ended by a timeout while it waited) is no error.
      pipe.on('error', () => undefined);
      verdict = awaitRecord(hold(child.pid), (go) => settleGate(pipe, go));
    } else spec.onStarted(child.pid);
  }
  const ended = new Promise<Ending>((resolve, reject) =>
    child.once('exit', (code, signal) => {
      const refusal = verdict?.refusal(code);
      if (refusal === undefined) resolve({ code, signal });
      else reject(refusal);
    }),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.stdout.on('data', (chunk: Uint8Array) => spec.stdout.write(chunk));
  child.stderr.on('data', (chunk: Uint8Array) => spec.stderr.write(chunk));
  child.stdout.on('error', () => undefined);
  child.stderr.on('error', () => undefined);
  // A hook that exits without reading its stdin breaks the pipe; that EPIPE is not an error.
  child.stdin.on('error', () => undefined);
  if (spec.stdin === undefined) child.stdin.end();
  else child.stdin.end(spec.stdin);
  await started(child);
  // Errors after a successful start (a stream torn down early) must not crash the host.
  child.on('error', () => undefined);
  return {
    pid: child.pid!,
    ended,
    closed,
    dropOutput() {
      child.stdout.destroy();
      child.stderr.destroy();
    },
  };
}

function started(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve, reject) => {
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve();
    };
    const onError = (error: Error): void => {
      child.off('spawn', onSpawn);
      reject(error);
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
}
