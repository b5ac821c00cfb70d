import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
  scratch.write(
    'hookline.toml',
    `
[[hooks]]
name = "any-stage"
event = "stage_start"
command = "true"

[[hooks]]
name = "deploy-gate"
event = "stage_start"
matcher = "^deploy$"
command = "exit 2"

[[hooks]]
name = "retired"
event = "stage_start"
command = "true"
enabled = false

[[hooks]]
name = "notify"
event = "run_failed"
command = "true"

[[hooks]]
name = "route"
event = "stage_start"
matcher = "^shell$"
command = "true"
blocking = false
`,
  );
});
afterEach(() => scratch.cleanup());

interface Explained {
  event: string;
  context: Record<string, unknown>;
  hooks: Array<{
    name: string;
    event: string;
    selected: boolean;
    reason: string;
    source: { file: string; line: number };
  }>;
}

test('explain --json gives every hook, selected or not, and the reason for each', async () => {
  const result = await runCli(
    ['explain', 'stage_start', '--set', 'node_id=build', '--set', 'handler_type=shell', '--json'],
    { cwd: scratch.path },
  );
  expect(result.code).toBe(0);
  const explained = JSON.parse(result.stdout) as Explained;
  expect(explained.context).toMatchObject({ event: 'stage_start', node_id: 'build', workflow_name: 'cli' });
  const byName = Object.fromEntries(explained.hooks.map((hook) => [hook.name, hook]));
  expect(explained.hooks.map((hook) => hook.name)).toEqual(['any-stage', 'deploy-gate', 'retired', 'notify', 'route']);
  expect(byName['any-stage']).toMatchObject({
    selected: true,
    reason: 'no matcher: runs on every "stage_start"',
    source: { file: 'hookline.toml', line: 2 },
  });
  // The matcher was tried against each matcher field the context has, and which ones those were.
  expect(byName['deploy-gate']).toMatchObject({
    selected: false,
    reason: 'matcher /^deploy$/ matched none of node_id="build", handler_type="shell"',
  });
  expect(byName['retired']).toMatchObject({
    selected: false,
    reason: 'disabled (enabled = false) at hookline.toml:13',
  });
  // Hooks of other events are listed too, with why they do not apply.
  expect(byName['notify']).toMatchObject({
    selected: false,
    event: 'run_failed',
    reason: 'listens to "run_failed", not "stage_start"',
  });
  expect(byName['route']).toMatchObject({ selected: true, reason: 'matcher /^shell$/ matched handler_type="shell"' });
});

test('a matcher never selects a context without any matcher field, and explain says so', async () => {
  const result = await runCli(['explain', 'stage_start', '--json'], { cwd: scratch.path });
  const explained = JSON.parse(result.stdout) as Explained;
  expect(explained.hooks.find((hook) => hook.name === 'deploy-gate')).toMatchObject({
    selected: false,
    reason:
      'matcher /^deploy$/ needs one of node_id, handler_type, edge_from, edge_to, tool_name, and the context has none',
  });
});

test('the human form is a table with the run order, and runs nothing', async () => {
  scratch.write('context.json', '{"node_id": "deploy"}');
  const result = await runCli(['explain', 'stage_start', '--context', 'context.json'], { cwd: scratch.path });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('stage_start: 2 of 4 hooks of this event would run (5 configured)');
  expect(result.stdout).toMatch(
    /✓\s+deploy-gate\s+stage_start\s+command\s+blocking\s+hookline\.toml:7\s+matcher \/\^deploy\$\/ matched node_id="deploy"/,
  );
  expect(result.stdout).toMatch(
    /✗\s+notify\s+run_failed\s+command\s+non-blocking\s+hookline\.toml:19\s+listens to "run_failed"/,
  );
  expect(result.stdout).toContain('order: any-stage → deploy-gate');
});

test('a hook disabled by a later layer names the file and line that disabled it', async () => {
  scratch.write('off.toml', '[[hooks]]\nname = "deploy-gate"\nenabled = false\n');
  const result = await runCli(
    ['explain', 'stage_start', '--config', 'hookline.toml', '--config', 'off.toml', '--json'],
    { cwd: scratch.path },
  );
  const explained = JSON.parse(result.stdout) as Explained;
  expect(explained.hooks.find((hook) => hook.name === 'deploy-gate')).toMatchObject({
    selected: false,
    reason: 'disabled (enabled = false) at off.toml:1',
  });
});

test('an unknown event is an error', async () => {
  const result = await runCli(['explain', 'stage_strat'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Did you mean "stage_start"?');
});
