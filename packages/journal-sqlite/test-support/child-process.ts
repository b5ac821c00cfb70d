import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { ChildOrder } from './durable-child.ts';

const script = fileURLToPath(new URL('./durable-child.ts', import.meta.url));

/** A running host process and what it has printed so far. */
export interface Child {
  readonly process: ChildProcess;
  /** Everything printed on stdout and stderr, as it arrives. */
  output(): string;
  /** Resolves once it exited and its output was read, with its exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

// A test that fails or times out leaves its host process running; on a loaded machine it would go
// on emitting for minutes after the test is gone. Every test ends the ones it started.
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** Starts a host process of `durable-child.ts` with an order; it is killed after the test if still running. */
export function startChild(order: ChildOrder): Child {
  const child = spawn(process.execPath, [script, JSON.stringify(order)], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { process: child, output: () => text, exited };
}
