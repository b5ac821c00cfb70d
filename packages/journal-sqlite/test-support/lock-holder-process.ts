import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const script = fileURLToPath(new URL('./lock-holder.ts', import.meta.url));
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** Another process holding the write lock of the SQLite file at `path`, once this resolves. */
export interface LockHolder {
  /** Lets go of the lock; resolves once the process ended (so the lock is free). */
  release(): Promise<void>;
}

/** Starts a process that takes the write lock of `path` (`BEGIN IMMEDIATE`); resolves once it holds it. */
export async function holdWriteLock(path: string): Promise<LockHolder> {
  const child = spawn(process.execPath, [script, path], { stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked\n')) resolve();
    });
    child.once('close', () => reject(new Error(`the lock holder ended before it took the lock: ${output}`)));
  });
  return {
    async release() {
      child.stdin.write('go\n');
      await exited;
      running.delete(child);
    },
  };
}
