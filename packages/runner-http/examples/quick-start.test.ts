import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const here = new URL('.', import.meta.url);

// The README shows this file verbatim; running it keeps the documented example true.
test('the README quick start runs and prints what it promises', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [new URL('quick-start.ts', here).pathname]);
  expect(stdout).toBe('build: proceed\ndeploy: block (deploys are frozen)\n');
  const [example, readme] = await Promise.all([
    readFile(new URL('quick-start.ts', here), 'utf8'),
    readFile(new URL('../README.md', here), 'utf8'),
  ]);
  expect(readme).toContain(example.trim());
});
