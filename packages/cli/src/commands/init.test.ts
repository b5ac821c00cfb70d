import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

test('init writes a commented starter that validates and runs', async () => {
  const result = await runCli(['init'], { cwd: scratch.path });
  expect(result.code).toBe(0);
  const text = readFileSync(join(scratch.path, 'hookline.toml'), 'utf8');
  expect(text).toContain('# Events of preset "arc":');
  expect((await runCli(['validate'], { cwd: scratch.path })).code).toBe(0);
  const emitted = await runCli(['emit', 'run_start', '--json'], { cwd: scratch.path });
  expect(JSON.parse(emitted.stdout)).toMatchObject({
    decision: 'proceed',
    hooks: [{ name: 'announce-run', status: 'ok' }],
  });
});

test('init refuses to overwrite unless --force', async () => {
  scratch.write('hookline.toml', '# mine\n');
  const refused = await runCli(['init'], { cwd: scratch.path });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('hookline.toml already exists; leaving it alone. Use --force to overwrite it.');
  expect(readFileSync(join(scratch.path, 'hookline.toml'), 'utf8')).toBe('# mine\n');
  expect((await runCli(['init', '--force'], { cwd: scratch.path })).code).toBe(0);
  expect(readFileSync(join(scratch.path, 'hookline.toml'), 'utf8')).toContain('announce-run');
  expect((await runCli(['init', 'other.toml'], { cwd: scratch.path })).code).toBe(0);
});
