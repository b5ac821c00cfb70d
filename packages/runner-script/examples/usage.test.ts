import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const here = new URL('.', import.meta.url);

// The README shows this file verbatim; running it keeps the documented example true. It imports the
// package by name, so it runs against the built dist (turbo builds before testing).
test('the README usage example runs and prints what it promises', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--no-node-snapshot',
    new URL('usage.ts', here).pathname,
  ]);
  expect(stdout).toBe(
    'build: proceed; release-freeze ok, runaway timed_out\ndeploy: block (deploy is frozen until Monday); release-freeze ok, runaway skipped\n',
  );
  const [example, readme] = await Promise.all([
    readFile(new URL('usage.ts', here), 'utf8'),
    readFile(new URL('../README.md', here), 'utf8'),
  ]);
  expect(readme).toContain(example.trim());
});
