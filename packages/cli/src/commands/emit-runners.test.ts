import { afterEach, beforeEach, expect, test } from 'vitest';
import { join } from 'node:path';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';
import { stopHosts } from '../../test-support/script-host.ts';

// The script and LLM runners wired into the CLI, as users reach them.
let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => {
  stopHosts(join(scratch.path, 'hosts'));
  scratch.cleanup();
});

// Both ways a script hook runs: through the script host (src/script-hooks/script-host.test.ts) and, with
// the host off, by the CLI restarting itself with --no-node-snapshot.
test.each([
  ['the script host', 'on'],
  ['a restart with --no-node-snapshot', 'off'],
])('a script hook runs through %s, stdin and exit code intact', async (_way, host) => {
  const hosts = join(scratch.path, 'hosts');
  const env = { HOOKLINE_SCRIPT_HOST: host, HOOKLINE_SCRIPT_HOST_DIR: hosts };
  scratch.write(
    'hookline.toml',
    `[[hooks]]\nname = "freeze"\nevent = "stage_start"\ntype = "script"\nscript = "if (context.node_id === 'deploy') return { decision: 'block', reason: 'frozen' }"\n`,
  );
  const blocked = await runCli(['emit', 'stage_start', '--context', '-', '--json'], {
    cwd: scratch.path,
    input: '{"node_id":"deploy"}',
    env,
  });
  expect(blocked.stderr).toBe('');
  expect(blocked.code).toBe(2);
  expect(JSON.parse(blocked.stdout)).toMatchObject({
    decision: 'block',
    reason: 'frozen',
    decided_by: 'freeze',
    hooks: [{ type: 'script', status: 'ok' }],
  });
  const passed = await runCli(['emit', 'stage_start', '--set', 'node_id=build', '--json'], { cwd: scratch.path, env });
  expect(passed.code).toBe(0);
  expect(JSON.parse(passed.stdout)).toMatchObject({ decision: 'proceed', hooks: [{ status: 'ok' }] });
});

test('a script syntax error is a load error with the file and line', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\ntype = "script"\nscript = "return {"\n');
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/hookline\.toml:4: .*script/);
});

test('prompt hooks load with the [models] table: user aliases work, unknown aliases and bad tables are load errors', async () => {
  scratch.write(
    'hookline.toml',
    '[models]\njudge = "claude-opus-5-5"\n\n[[hooks]]\nevent = "stage_start"\ntype = "prompt"\nprompt = "Is this safe?"\nmodel = "judge"\n',
  );
  const valid = await runCli(['validate'], { cwd: scratch.path });
  expect(valid.stderr).toBe('');
  expect(valid.code).toBe(0);

  scratch.write(
    'hookline.toml',
    '[[hooks]]\nevent = "stage_start"\ntype = "prompt"\nprompt = "Is this safe?"\nmodel = "jugde"\n',
  );
  const unknown = await runCli(['validate'], { cwd: scratch.path });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toMatch(/hookline\.toml:5: .*jugde/);

  scratch.write(
    'hookline.toml',
    '[models]\njudge = 5\n\n[[hooks]]\nevent = "stage_start"\ntype = "prompt"\nprompt = "Is this safe?"\n',
  );
  const bad = await runCli(['emit', 'stage_start', '--json'], { cwd: scratch.path });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('hookline.toml:2: [models] `judge` must be a model id');
});

test('a prompt hook without an API key fails open, visibly', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "judge"\nevent = "stage_start"\ntype = "prompt"\nprompt = "Is this safe?"\n',
  );
  const env: Record<string, string> = { ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '' };
  const result = await runCli(['emit', 'stage_start', '--json'], { cwd: scratch.path, env });
  expect(result.code).toBe(0);
  const outcome = JSON.parse(result.stdout) as {
    decision: string;
    hooks: Array<Record<string, unknown>>;
    warnings: string[];
  };
  expect(outcome.decision).toBe('proceed');
  expect(outcome.hooks[0]).toMatchObject({ status: 'failed', decision: { decision: 'proceed' } });
  expect(String(outcome.hooks[0]!['error'])).toContain('ANTHROPIC_API_KEY');
  expect(outcome.warnings.join('\n')).toContain('judge');
});
