import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { installCliAlone } from '../../test-support/install-cli-alone.ts';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const read = (name: string): string => readFileSync(join(scratch.path, name), 'utf8');

describe('preset "task"', () => {
  const config = `preset = "task"

[hooks]
after_merge = ["echo $ARC_TASK >> merged.txt", "exit 3", "echo second >> merged.txt"]
`;

  test('a point runs its commands in order; a failing one is a warning, never a block; logs under runs/<task>/hooks/', async () => {
    scratch.write('hookline.toml', config);
    const result = await runCli(['emit', 'after_merge', '--set', 'task=t-1'], { cwd: scratch.path });
    // Task points never change the host's state: exit 0 whatever the commands did.
    expect(result.code).toBe(0);
    expect(read('merged.txt')).toBe('t-1\nsecond\n');
    expect(result.stdout).toMatch(/^after_merge: proceed\n/);
    expect(result.stdout).toMatch(/after_merge-02 \(non-blocking\)\s+command\s+ok\s+block/);
    expect(result.stderr).toContain(
      'hookline: warning: hook "after_merge-02" decided "block": hook exited with code 3 — it is non-blocking, so the event was not held back',
    );
    expect(readdirSync(join(scratch.path, 'runs', 't-1', 'hooks')).sort()).toEqual([
      'after_merge-01.log',
      'after_merge-02.log',
      'after_merge-03.log',
    ]);
    expect(read('runs/t-1/hooks/after_merge-02.log')).toContain('result: exit 3');
    // Every task point is durable: journaled in the default journal, and cleared once the commands ran.
    expect(existsSync(join(scratch.path, '.hookline', 'journal.db'))).toBe(true);
  });

  test('--json: the settled outcome, the failure among its warnings', async () => {
    scratch.write('hookline.toml', config);
    const result = await runCli(['emit', 'after_merge', '--set', 'task=t-1', '--json'], { cwd: scratch.path });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const outcome = JSON.parse(result.stdout) as {
      decision: string;
      hooks: Array<{ name: string; status: string; exit_code: number }>;
      warnings: string[];
    };
    expect(outcome.decision).toBe('proceed');
    expect(outcome.hooks.map((hook) => [hook.name, hook.status, hook.exit_code])).toEqual([
      ['after_merge-01', 'ok', 0],
      ['after_merge-02', 'ok', 3],
      ['after_merge-03', 'ok', 0],
    ]);
    expect(outcome.warnings).toEqual([expect.stringContaining('"after_merge-02" decided "block"')]);
  });

  test('the CLI does not make up a task id: without one, the error says which --set to add', async () => {
    scratch.write('hookline.toml', config);
    const result = await runCli(['emit', 'after_merge'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('preset "task" needs the context field "task"');
    expect(result.stderr).toContain('add --set task=…');
    expect(existsSync(join(scratch.path, 'merged.txt'))).toBe(false);
  });

  test('list shows the points as durable; explain gives their order; schema has the [hooks] lists', async () => {
    scratch.write('hookline.toml', config);
    const listed = await runCli(['list', '--json'], { cwd: scratch.path });
    expect(
      (JSON.parse(listed.stdout) as Array<Record<string, unknown>>).map((hook) => [
        hook['name'],
        hook['blocking'],
        hook['durable'],
      ]),
    ).toEqual([
      ['after_merge-01', false, true],
      ['after_merge-02', false, true],
      ['after_merge-03', false, true],
    ]);
    expect((await runCli(['list'], { cwd: scratch.path })).stdout).toMatch(
      /after_merge-01\s+after_merge\s+command\s+non-blocking\s+durable\s/,
    );
    const explained = await runCli(['explain', 'after_merge', '--set', 'task=t-1'], { cwd: scratch.path });
    expect(explained.code).toBe(0);
    expect(explained.stdout).toContain(
      'order: after_merge-01 (non-blocking, in order) → after_merge-02 (non-blocking, in order) → after_merge-03 (non-blocking, in order)',
    );
    // Neither explain nor validate runs anything, so neither opens (or makes) the journal.
    expect((await runCli(['validate'], { cwd: scratch.path })).code).toBe(0);
    expect(existsSync(join(scratch.path, '.hookline'))).toBe(false);
    const schema = JSON.parse((await runCli(['schema'], { cwd: scratch.path })).stdout) as Record<string, unknown>;
    expect(JSON.stringify(schema)).toContain('Shell command lines run in order at after_merge.');
    // Without a config, the schema is arc's.
    scratch.write('elsewhere/.keep', '');
    const arcSchema = JSON.parse((await runCli(['schema'], { cwd: join(scratch.path, 'elsewhere') })).stdout) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(arcSchema)).not.toContain('after_merge');
  });
});

describe('preset "agent"', () => {
  const config = `preset = "agent"

[[hooks]]
event = "pre_tool_use"
tool_name = "Bash"
[hooks.action]
type = "shell"
command = "echo 'no rm -rf' >&2; exit 1"

[[hooks]]
event = "session_start"
[hooks.action]
type = "shell"
command = 'echo "$AGENT_CODE_HOOK_CONTEXT" > session.json'
`;

  test('a pre_tool_use shell action that exits 1 vetoes the tool with its stderr: exit 2', async () => {
    scratch.write('hookline.toml', config);
    const result = await runCli(['emit', 'pre_tool_use', '--set', 'tool_name=Bash', '--json'], { cwd: scratch.path });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      decision: 'block',
      reason: 'no rm -rf',
      hooks: [
        {
          type: 'command',
          blocking: true,
          status: 'ok',
          exit_code: 1,
          decision: { decision: 'block', reason: 'no rm -rf' },
        },
      ],
    });
    const human = await runCli(['emit', 'pre_tool_use', '--set', 'tool_name=Bash'], { cwd: scratch.path });
    expect(human.code).toBe(2);
    expect(human.stdout).toMatch(/^pre_tool_use: block — no rm -rf/);
  });

  test('tool_name is an exact match: the Bash hook does not fire for BashOutput', async () => {
    scratch.write('hookline.toml', config);
    const result = await runCli(['emit', 'pre_tool_use', '--set', 'tool_name=BashOutput', '--json'], {
      cwd: scratch.path,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'proceed', hooks: [] });
  });

  test('session_id is filled in as cli-<time>-<hex>; agent configs need no journal', async () => {
    scratch.write('hookline.toml', config);
    const result = await runCli(['emit', 'session_start'], { cwd: scratch.path });
    expect(result.code).toBe(0);
    const context = JSON.parse(read('session.json')) as Record<string, unknown>;
    expect(context).toMatchObject({ event: 'session_start' });
    expect(context['session_id']).toMatch(/^cli-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    expect(context['run_id']).toBeUndefined();
    expect(existsSync(join(scratch.path, '.hookline'))).toBe(false);
  });

  test('an http action needs the http runner: loaded when installed, named when not', async () => {
    scratch.write(
      'hookline.toml',
      'preset = "agent"\n\n[[hooks]]\nevent = "session_stop"\n[hooks.action]\ntype = "http"\nurl = "https://example.com/hook"\n',
    );
    // list loads only the runners the config uses (validate loads every installed one).
    const listed = await runCli(['list', '--json'], { cwd: scratch.path });
    expect(listed.stderr).toBe('');
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { event: 'session_stop', type: 'http', options: { url: 'https://example.com/hook' } },
    ]);
    // preset agent keeps the other hooks running: the hook is kept as an invalid one that fails when selected.
    const cli = installCliAlone(scratch.path);
    const alone = await runCli(['list'], { cwd: scratch.path, cli });
    expect(alone.code).toBe(0);
    expect(alone.stderr).toMatch(/hookline\.toml:\d+: .*unknown hook type "http" — install @hookline\/runner-http/);
    expect(alone.stdout).toContain('(invalid: fails when selected)');
    const validated = await runCli(['validate'], { cwd: scratch.path, cli });
    expect(validated.code).toBe(1);
  });
});
