import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// `--set` reads each value by the type the preset's context schema gives the field; these run the
// real CLI with a command hook that writes out the context it received on stdin.

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const received = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(scratch.path, 'received.json'), 'utf8')) as Record<string, unknown>;

test('task: --set attempt=t-42-2 reaches the hook as the text it is (attempts are <task>-<n>)', async () => {
  scratch.write(
    'hookline.toml',
    'preset = "task"\n\n[hooks]\nafter_merge = ["cat > received.json; printf %s \\"$ARC_ATTEMPT\\" > attempt.txt"]\n',
  );
  const result = await runCli(['emit', 'after_merge', '--set', 'task=t-42', '--set', 'attempt=t-42-2', '--json'], {
    cwd: scratch.path,
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(received()).toMatchObject({ event: 'after_merge', task: 't-42', attempt: 't-42-2' });
  expect(readFileSync(join(scratch.path, 'attempt.txt'), 'utf8')).toBe('t-42-2');
  // A digit-only attempt stays text too: the schema, not the value's look, decides.
  await runCli(['emit', 'after_merge', '--set', 'task=t-42', '--set', 'attempt=2', '--json'], { cwd: scratch.path });
  expect(received()['attempt']).toBe('2');
});

test('arc: attempt is a count, so --set attempt=t-42-2 is refused before any hook runs', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_start"\ncommand = "cat > received.json"\n');
  const refused = await runCli(['emit', 'run_start', '--set', 'attempt=t-42-2'], { cwd: scratch.path });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('attempt is an integer field; give a whole number');
  expect(existsSync(join(scratch.path, 'received.json'))).toBe(false);
  const counted = await runCli(['emit', 'run_start', '--set', 'attempt=2', '--json'], { cwd: scratch.path });
  expect(counted.code).toBe(0);
  expect(received()['attempt']).toBe(2);
});

const agentConfig =
  'preset = "agent"\n\n[[hooks]]\nevent = "pre_tool_use"\n[hooks.action]\ntype = "shell"\ncommand = "cat > received.json"\n';

test('agent: --set tool_input={"command":"ls"} reaches the hook as an object', async () => {
  scratch.write('hookline.toml', agentConfig);
  const result = await runCli(
    ['emit', 'pre_tool_use', '--set', 'tool_name=Bash', '--set', 'tool_input={"command":"ls"}', '--json'],
    { cwd: scratch.path },
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(received()).toMatchObject({ event: 'pre_tool_use', tool_name: 'Bash', tool_input: { command: 'ls' } });
});

test('agent: a tool_input that is not a JSON object is a usage error that says what to give', async () => {
  scratch.write('hookline.toml', agentConfig);
  for (const value of ['ls', '["ls"]', '{"command":']) {
    const result = await runCli(['emit', 'pre_tool_use', '--set', `tool_input=${value}`], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`--set tool_input=${value}: tool_input is an object field; give a JSON object`);
  }
  expect(existsSync(join(scratch.path, 'received.json'))).toBe(false);
});

test('fields a preset does not document are JSON when they parse, else text', async () => {
  scratch.write('hookline.toml', agentConfig);
  const result = await runCli(
    ['emit', 'pre_tool_use', '--set', 'retries=3', '--set', 'meta={"a":[1]}', '--set', 'note=hello world'],
    { cwd: scratch.path },
  );
  expect(result.code).toBe(0);
  expect(received()).toMatchObject({ retries: 3, meta: { a: [1] }, note: 'hello world' });
});
