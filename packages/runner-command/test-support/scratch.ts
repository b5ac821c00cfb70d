import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/**
 * A fresh directory per test, removed after it, for the files hooks write as side effects. Returns
 * a getter because the directory changes from test to test.
 */
export function useScratchDirectory(): () => string {
  let directory = '';
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'runner-command-test-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });
  return () => directory;
}
