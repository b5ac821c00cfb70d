import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh directory per test, removed after it. Returns a getter: the directory changes per test. */
export function useScratchDirectory(): () => string {
  let directory = '';
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'journal-sqlite-test-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });
  return () => directory;
}

/** Polls `condition` every 20 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Ends the process groups whose leaders' pids are listed in `file`, one per line: the hooks of a
 * killed engine keep running in groups of their own, and each test hook writes `$$` there first.
 */
export function killHookGroups(file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n')) {
    const pid = Number(line.trim());
    if (!Number.isInteger(pid) || pid <= 1) continue;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
