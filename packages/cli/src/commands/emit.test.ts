import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isRunning, killGroup, waitFor } from '../../test-support/processes.ts';
import { finished, makeScratch, runCli, startCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const emit = (args: readonly string[], input?: string) =>
  runCli(['emit', ...args], { cwd: scratch.path, ...(input === undefined ? {} : { input }) });

const POLICY = `
[[hooks]]
name = "pre-check"
event = "stage_start"
matcher = "^deploy$"
command = '''echo '{"decision":"block","reason":"policy violation"}'; exit 2'''

[[hooks]]
name = "notify"
event = "stage_start"
blocking = false
command = "sleep 0.3; echo notified"
`;

describe('hookline emit', () => {
  test("prints the settled outcome as JSON, in the outcome's exact shape, and waits for non-blocking hooks", async () => {
    scratch.write('hookline.toml', POLICY);
    const result = await emit(['stage_start', '--set', 'node_id=build', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    const outcome = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(outcome)).toEqual(['event', 'decision', 'hooks', 'warnings']);
    expect(outcome).toMatchObject({ event: 'stage_start', decision: 'proceed', warnings: [] });
    // The non-blocking hook finished before the CLI printed: its final report, not "pending".
    expect(outcome['hooks']).toEqual([
      expect.objectContaining({
        name: 'notify',
        type: 'command',
        blocking: false,
        status: 'ok',
        decision: { decision: 'proceed' },
        exit_code: 0,
        duration_ms: expect.any(Number),
      }),
    ]);
  });

  test('a block exits 2 with the reason and who decided, and skips the rest', async () => {
    scratch.write('hookline.toml', POLICY);
    const json = await emit(['stage_start', '--set', 'node_id=deploy', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      decision: 'block',
      reason: 'policy violation',
      decided_by: 'pre-check',
      hooks: [
        { name: 'pre-check', status: 'ok', decision: { decision: 'block', reason: 'policy violation' }, exit_code: 2 },
        { name: 'notify', status: 'skipped' },
      ],
    });
    const human = await emit(['stage_start', '--set', 'node_id=deploy']);
    expect(human.code).toBe(2);
    expect(human.stdout).toContain('stage_start: block — policy violation (decided by pre-check)');
    expect(human.stdout).toMatch(/hook\s+type\s+status\s+decision\s+time/);
    expect(human.stdout).toMatch(/pre-check\s+command\s+ok\s+block\s+\d+ ms/);
    expect(human.stdout).toMatch(/notify \(non-blocking\)\s+command\s+skipped/);
    // Piped output carries no color codes.
    expect(human.stdout).not.toContain('\u001B[');
  });

  test('an override shows its edge; a failure is visible even when the event proceeds', async () => {
    scratch.write(
      'hookline.toml',
      `
[[hooks]]
name = "reroute"
event = "edge_selected"
command = '''echo '{"decision":"override","edge_to":"fix","reason":"tests failing"}' '''

[[hooks]]
name = "broken"
event = "edge_selected"
blocking = false
on_error = "proceed"
command = "exit 7"
`,
    );
    const result = await emit(['edge_selected', '--set', 'edge_from=test', '--set', 'edge_to=deploy', '--json']);
    expect(result.code).toBe(0);
    const outcome = JSON.parse(result.stdout) as {
      decision: string;
      edge_to: string;
      hooks: Array<{ name: string; status: string; decision?: { decision: string } }>;
    };
    expect(outcome).toMatchObject({ decision: 'override', edge_to: 'fix', decided_by: 'reroute' });
    // Exit 7 is "block" by the protocol, recorded but ignored for a non-blocking hook.
    expect(outcome.hooks[1]).toMatchObject({
      name: 'broken',
      status: 'ok',
      decision: { decision: 'block' },
      exit_code: 7,
    });
    const human = await emit(['edge_selected', '--set', 'edge_from=test', '--set', 'edge_to=deploy']);
    expect(human.stdout).toContain('edge_selected: override → fix — tests failing (decided by reroute)');
  });

  test('fills run_id and workflow_name, passes --context and --set through, typed by the documented fields', async () => {
    scratch.write(
      'hookline.toml',
      '[[hooks]]\nevent = "stage_start"\nsandbox = false\ncommand = "cat \\"$ARC_HOOK_CONTEXT\\" > seen.json"\n',
    );
    scratch.write('context.json', JSON.stringify({ node_id: 'build', extra: { nested: true } }));
    const result = await emit([
      'stage_start',
      '--context',
      'context.json',
      '--set',
      'attempt=2',
      '--set',
      'node_label=007',
      '--set',
      'retries=3',
      '--set',
      'flag=true',
      '--set',
      'note=hello world',
    ]);
    expect(result.code).toBe(0);
    const seen = JSON.parse(readFileSync(join(scratch.path, 'seen.json'), 'utf8')) as Record<string, unknown>;
    expect(seen).toMatchObject({
      event: 'stage_start',
      workflow_name: 'cli',
      node_id: 'build',
      extra: { nested: true },
      attempt: 2,
      node_label: '007',
      retries: 3,
      flag: true,
      note: 'hello world',
    });
    expect(seen['run_id']).toMatch(/^cli-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  });

  test('reads the context from stdin with --context -', async () => {
    scratch.write(
      'hookline.toml',
      '[[hooks]]\nevent = "stage_start"\nmatcher = "^build$"\ncommand = \'\'\'echo \'{"decision":"skip","reason":"cached"}\' \'\'\'\n',
    );
    const result = await emit(
      ['stage_start', '--context', '-', '--json'],
      '{"run_id":"r1","workflow_name":"ship","node_id":"build"}',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'skip', reason: 'cached' });
  });

  describe('errors exit 1 with a message that says what to do', () => {
    test('a missing --config file', async () => {
      const result = await emit(['stage_start', '--config', 'nope.toml']);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toContain('config file nope.toml not found');
    });

    test('bad TOML, with file and line', async () => {
      scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\ncommand = "true\n');
      const result = await emit(['stage_start']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/the configuration has 1 problem; nothing was run:\n {2}hookline\.toml:3:/);
    });

    test('every config problem at once, each with file:line', async () => {
      scratch.write(
        'hookline.toml',
        '[[hooks]]\nevent = "stage_strat"\ncommand = "true"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\nblockng = true\n',
      );
      const result = await emit(['stage_start']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('2 problems');
      expect(result.stderr).toMatch(/hookline\.toml:2: .*stage_strat.*stage_start/);
      expect(result.stderr).toMatch(/hookline\.toml:8: .*blockng.*did you mean `blocking`/);
    });

    test('an unknown event, with the nearest one', async () => {
      const result = await emit(['stage_strat']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Unknown event "stage_strat" for preset "arc". Did you mean "stage_start"?');
    });

    test('--context that is not JSON, not an object, or not there', async () => {
      scratch.write('bad.json', '{"node_id": ');
      scratch.write('list.json', '[1, 2]');
      const notJson = await emit(['stage_start', '--context', 'bad.json']);
      expect(notJson.code).toBe(1);
      expect(notJson.stderr).toMatch(/the context from bad\.json is not JSON .*give a JSON object/);
      const notObject = await emit(['stage_start', '--context', 'list.json']);
      expect(notObject.code).toBe(1);
      expect(notObject.stderr).toContain('the context from list.json must be a JSON object, got an array');
      const stdin = await emit(['stage_start', '--context', '-'], '"just a string"');
      expect(stdin.stderr).toContain('the context from stdin must be a JSON object, got string');
      const missing = await emit(['stage_start', '--context', 'absent.json']);
      expect(missing.stderr).toContain('context file absent.json not found');
    });

    test('--set with a wrong type for a typed field, without =, or on event', async () => {
      const typed = await emit(['stage_start', '--set', 'attempt=abc']);
      expect(typed.code).toBe(1);
      expect(typed.stderr).toContain('--set attempt=abc: attempt is an integer field; give a whole number');
      expect((await emit(['stage_start', '--set', 'node_id'])).stderr).toContain(
        '--set needs key=value, got "node_id"',
      );
      expect((await emit(['stage_start', '--set', 'event=run_start'])).stderr).toContain(
        "the event is the command's first argument",
      );
    });

    test('usage: a missing event, an unknown option', async () => {
      expect((await emit([])).stderr).toContain('`hookline emit` needs <event>');
      const unknown = await emit(['stage_start', '--jsn']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("Unknown option '--jsn'");
      expect(unknown.stderr).toContain('hookline emit --help');
    });
  });

  test('--set on a field no preset documents is passed through; a likely typo gets a hint', async () => {
    scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\nmatcher = "^x$"\ncommand = "true"\n');
    const result = await emit(['stage_start', '--set', 'nodeid=x', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('--set nodeid: not a field of preset "arc" — did you mean node_id?');
    // Passed through, but a host field is not a matcher field: the hook is not selected.
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'proceed', hooks: [] });
  });

  test('with no config file anywhere: proceed, with a warning that says where it looked', async () => {
    const json = await emit(['stage_start', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ event: 'stage_start', decision: 'proceed', hooks: [], warnings: [] });
    expect(json.stderr).toContain(
      `no config file found (looked for ${join(scratch.path, '.xdg', 'hookline', 'hookline.toml')}, ${join(scratch.path, 'hookline.toml')} and ${join(scratch.path, '.agent', 'settings.toml')})`,
    );
  });

  test('discovery layers the user file, then ./hookline.toml: a project hook replaces a user hook in place', async () => {
    scratch.write(
      '.xdg/hookline/hookline.toml',
      '[[hooks]]\nname = "gate"\nevent = "run_start"\ncommand = "exit 2"\n\n[[hooks]]\nname = "audit"\nevent = "run_start"\ncommand = "true"\n',
    );
    scratch.write('hookline.toml', '[[hooks]]\nname = "gate"\nevent = "run_start"\ncommand = "true"\n');
    const result = await emit(['run_start', '--json']);
    expect(result.code).toBe(0);
    const outcome = JSON.parse(result.stdout) as { hooks: Array<{ name: string; decision: { decision: string } }> };
    expect(outcome.hooks.map((hook) => `${hook.name}:${hook.decision.decision}`)).toEqual([
      'gate:proceed',
      'audit:proceed',
    ]);
    // Explicit --config replaces discovery.
    const explicit = await emit(['run_start', '--config', '.xdg/hookline/hookline.toml', '--json']);
    expect(explicit.code).toBe(2);
  });
});

test("SIGINT while a hook runs: the hook's process group is killed and the CLI exits 130", async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\ncommand = "echo $$ > hook.pid; exec sleep 60"\n');
  const child = startCli(['emit', 'stage_start'], { cwd: scratch.path });
  child.stdin!.end();
  const done = finished(child);
  const pidFile = join(scratch.path, 'hook.pid');
  for (let waited = 0; !(existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== ''); waited += 50) {
    if (waited > 20_000) throw new Error('the hook never started');
    await delay(50);
  }
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  child.kill('SIGINT');
  expect((await done).code).toBe(130);
  for (let waited = 0; isRunning(pid) && waited < 5_000; waited += 50) await delay(50);
  expect(isRunning(pid)).toBe(false);
}, 60_000);

test('what a local hook leaves running ends with it, and a setsid daemon lives on, after the CLI exits', async () => {
  scratch.write(
    'hookline.toml',
    `[[hooks]]
name = "leaky"
event = "stage_start"
command = '''
sleep 300 & echo $! > leftover.pid
setsid sh -c 'echo $$ > daemon.pid; exec sleep 300' </dev/null >/dev/null 2>&1 &
while [ ! -s daemon.pid ]; do sleep 0.01; done
exit 0
'''
`,
  );
  const result = await emit(['stage_start', '--json']);
  const daemon = Number(readFileSync(join(scratch.path, 'daemon.pid'), 'utf8'));
  try {
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ hooks: [{ name: 'leaky', status: 'ok', sandbox: 'local' }] });
    // SIGTERM was sent before the CLI exited; the sleep may take a moment to be reaped.
    await waitFor(
      'the leftover sleep to end',
      () => !isRunning(Number(readFileSync(join(scratch.path, 'leftover.pid'), 'utf8'))),
      5_000,
    );
    expect(isRunning(daemon)).toBe(true);
  } finally {
    killGroup(daemon);
  }
});

test("the engine's own sandbox events are reported: a sandbox_ready block is a warning, and sandboxed hooks then fail", async () => {
  scratch.write(
    'hookline.toml',
    `[[hooks]]
name = "gatekeeper"
event = "sandbox_ready"
blocking = true          # non-blocking by default
command = '''echo '{"decision":"block","reason":"no sandbox today"}'; exit 2'''

[[hooks]]
name = "work"
event = "stage_start"
command = "true"
`,
  );
  const result = await emit(['stage_start', '--json']);
  expect(result.code).toBe(2);
  expect(JSON.parse(result.stdout)).toMatchObject({
    hooks: [{ name: 'work', status: 'failed', error: expect.stringContaining('no sandbox today') }],
  });
  expect(result.stderr).toContain('hookline: warning: sandbox_ready: blocked by "gatekeeper": no sandbox today');
});
