// Temporary directories for agent tests, removed when the test ends.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh directory (as a real path) that is removed after the current test. */
export async function scratchDirectory(label: string): Promise<string> {
  const directory = await realpath(await mkdtemp(join(tmpdir(), `hookline-llm-${label}-`)));
  onTestFinished(() => rm(directory, { recursive: true, force: true }));
  return directory;
}
