import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// Issue 18: finding the right preset. A coding agent's own settings file, as a coding agent keeps it.
const AGENT_SETTINGS = `# hooks of a coding agent; its other settings may sit beside them
model = "fast"

[[hooks]]
event = "pre_tool_use"
tool_name = "Bash"
[hooks.action]
type = "shell"
command = "echo 'no rm -rf' >&2; exit 1"

[[hooks]]
event = "post_tool_use"
tool_name = "FileWrite"
[hooks.action]
type = "shell"
command = "true"
`;

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

test('a hookline.toml of agent events without the preset line gets one error naming the preset', async () => {
  scratch.write('hookline.toml', AGENT_SETTINGS);
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(
    'hookline.toml:5: the events "pre_tool_use", "post_tool_use" belong to preset "agent", not to preset "arc" (the default) — add preset = "agent" at the top of the file\n',
  );
  scratch.write('hookline.toml', `preset = "agent"\n${AGENT_SETTINGS}`);
  const fixed = await runCli(['validate'], { cwd: scratch.path });
  expect(fixed).toMatchObject({ code: 0, stdout: '✓ valid: 2 hooks in hookline.toml\n' });
});

test("emitting another preset's event names the preset to add", async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_start"\ncommand = "true"\n');
  const result = await runCli(['emit', 'pre_tool_use'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('It is an event of preset "agent": add preset = "agent" to the config.');
});

test('with no hookline.toml, .agent/settings.toml is the config, read as preset agent', async () => {
  scratch.write('.agent/settings.toml', AGENT_SETTINGS);
  const valid = await runCli(['validate'], { cwd: scratch.path });
  expect(valid.code).toBe(0);
  expect(valid.stdout).toBe('✓ valid: 2 hooks in .agent/settings.toml\n');

  const blocked = await runCli(['emit', 'pre_tool_use', '--set', 'tool_name=Bash', '--json'], { cwd: scratch.path });
  expect(blocked.code).toBe(2);
  expect(JSON.parse(blocked.stdout)).toMatchObject({ event: 'pre_tool_use', decision: 'block', reason: 'no rm -rf' });

  // A Hookline config, when there is one, is the config: the agent's file is not layered under it.
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_start"\ncommand = "true"\n');
  const arc = await runCli(['validate'], { cwd: scratch.path });
  expect(arc).toMatchObject({ code: 0, stdout: '✓ valid: 1 hook in hookline.toml\n' });
});

test('--config .agent/settings.toml is read as preset agent too, unless the file names a preset', async () => {
  scratch.write('.agent/settings.toml', AGENT_SETTINGS);
  const listed = await runCli(['list', '--config', '.agent/settings.toml', '--json'], { cwd: scratch.path });
  expect(listed.code).toBe(0);
  // tool_name is the agent dialect's: it became an exact matcher.
  expect(JSON.parse(listed.stdout)).toMatchObject([
    { event: 'pre_tool_use', matcher: '^Bash$', timeout_ms: 30000 },
    { event: 'post_tool_use' },
  ]);

  scratch.write('.agent/settings.toml', `preset = "task"\n${AGENT_SETTINGS}`);
  const wrong = await runCli(['validate', '--config', '.agent/settings.toml'], { cwd: scratch.path });
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain(
    '.agent/settings.toml:1: the events "pre_tool_use", "post_tool_use" belong to preset "agent", not to preset "task" — write preset = "agent" instead of preset = "task"',
  );
});

test('with no config at all, the warning says where the CLI looked, .agent/settings.toml included', async () => {
  const result = await runCli(['emit', 'run_start', '--json'], { cwd: scratch.path });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('.agent/settings.toml');
});
