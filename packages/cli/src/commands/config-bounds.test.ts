import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// The bounds of a config through the built CLI: a file past 4 MiB is refused without being read, a
// long string and too many hooks with a message naming the limit.

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
  // Prints the process's peak memory as it exits.
  scratch.write(
    'max-rss.mjs',
    "process.on('exit', () => process.stderr.write(`max-rss:${process.resourceUsage().maxRSS}\\n`));\n",
  );
});
afterEach(() => scratch.cleanup());

const peakKb = (stderr: string): number => Number(/max-rss:(\d+)/.exec(stderr)?.[1]);
const validate = (file: string) =>
  runCli(['validate', '--config', file], {
    cwd: scratch.path,
    nodeOptions: ['--import', join(scratch.path, 'max-rss.mjs')],
  });

test('a 50 MB command (the reported input): one clear error, and the file is never read into memory', async () => {
  const small = await validate(scratch.write('small.toml', '[[hooks]]\nevent = "run_start"\ncommand = "true"\n'));
  expect(small.code, small.stderr).toBe(0);
  const file = join(scratch.path, 'huge.toml');
  writeFileSync(file, `[[hooks]]\nevent = "run_start"\ncommand = "${'a'.repeat(50 * 1024 * 1024)}"\n`);
  const huge = await validate(file);
  expect(huge.code).toBe(1);
  expect(huge.stderr).toContain(
    'huge.toml: the config is 50.0 MiB, more than the 4 MiB a config may have — split it or move long scripts into files that the hooks run',
  );
  // Reading the file alone would add its 50 MB; validating it took about 1 GB before the bound.
  expect(peakKb(huge.stderr) - peakKb(small.stderr)).toBeLessThan(30 * 1024);
}, 60_000);

test('a 300 KiB command in a small file: the key, its line and the limit', async () => {
  const file = scratch.write(
    'long.toml',
    `[[hooks]]\nname = "long"\nevent = "run_start"\ncommand = "${'a'.repeat(300 * 1024)}"\n`,
  );
  const result = await runCli(['validate', '--config', file], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    'long.toml:4: hooks[0].command is 300 KiB, more than the 256 KiB a string in a config may have',
  );
});

test('10 001 hooks: an error naming the limit; `hookline emit` of a config at the limit finishes', async () => {
  const hooks = (count: number) =>
    Array.from(
      { length: count },
      (_, index) =>
        `[[hooks]]\nname = "h${index}"\nevent = "stage_complete"\nmatcher = "^nomatch$"\nsandbox = false\ncommand = "true"\n`,
    ).join('');
  const over = scratch.write('over.toml', hooks(10_001));
  const refused = await runCli(
    [
      'emit',
      'stage_complete',
      '--set',
      'run_id=r',
      '--set',
      'workflow_name=w',
      '--set',
      'node_id=build',
      '--config',
      over,
    ],
    { cwd: scratch.path },
  );
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('the configuration has 10001 hooks, more than the 10000 a configuration may have');
  const at = scratch.write('at.toml', hooks(10_000));
  const emitted = await runCli(
    [
      'emit',
      'stage_complete',
      '--json',
      '--set',
      'run_id=r',
      '--set',
      'workflow_name=w',
      '--set',
      'node_id=build',
      '--config',
      at,
    ],
    { cwd: scratch.path },
  );
  expect(emitted.code, emitted.stderr).toBe(0);
  expect(JSON.parse(emitted.stdout)).toMatchObject({ decision: 'proceed', hooks: [] });
}, 120_000);
