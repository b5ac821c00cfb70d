import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}

interface TaskOutcome {
  readonly hooks: Array<{ name: string; status: string; exit_code?: number }>;
  readonly warnings: string[];
}

test('init --preset task: the after_merge lines delete the remote branch, the worktree and the local branch, twice safely', async () => {
  // A repository whose remote (named "upstream" here) is a bare repository next to it: no network.
  const repo = join(scratch.path, 'repo');
  const remote = join(scratch.path, 'remote.git');
  execFileSync('git', ['init', '--quiet', '--bare', remote]);
  execFileSync('git', ['init', '--quiet', '-b', 'main', repo]);
  git(repo, 'commit', '--quiet', '--allow-empty', '-m', 'start');
  git(repo, 'remote', 'add', 'upstream', remote);
  git(repo, 'branch', 'work/t-1');
  git(repo, 'push', '--quiet', 'upstream', 'main', 'work/t-1');
  const worktree = join(repo, '.radian', 'arc', 'worktrees', 't-1');
  git(repo, 'worktree', 'add', '--quiet', worktree, 'work/t-1');

  const init = await runCli(['init', '--preset', 'task', '--remote', 'upstream'], { cwd: repo });
  expect(init).toMatchObject({
    code: 0,
    stdout:
      'wrote hookline.toml — check it with `hookline validate`, try it with `hookline emit after_merge --set task=…`\n',
  });
  expect(readFileSync(join(repo, 'hookline.toml'), 'utf8')).not.toContain('origin');
  expect(await runCli(['validate'], { cwd: repo })).toMatchObject({
    code: 0,
    stdout: '✓ valid: 3 hooks in hookline.toml\n',
  });

  const emit = [
    'emit',
    'after_merge',
    '--set',
    'task=t-1',
    '--set',
    'branch=work/t-1',
    '--set',
    `worktree=${worktree}`,
    '--json',
  ];
  for (const round of [1, 2]) {
    const result = await runCli(emit, { cwd: repo });
    expect(result.code, `round ${round}: ${result.stderr}`).toBe(0);
    const outcome = JSON.parse(result.stdout) as TaskOutcome;
    expect(outcome.warnings, `round ${round}`).toEqual([]);
    expect(outcome.hooks.map((hook) => [hook.name, hook.status, hook.exit_code])).toEqual([
      ['after_merge-01', 'ok', 0],
      ['after_merge-02', 'ok', 0],
      ['after_merge-03', 'ok', 0],
    ]);
    expect(git(repo, 'ls-remote', '--heads', 'upstream')).not.toContain('work/t-1');
    expect(existsSync(worktree)).toBe(false);
    expect(git(repo, 'branch', '--list', 'work/t-1')).toBe('');
  }
  // The target branch and the main checkout are untouched.
  expect(git(repo, 'ls-remote', '--heads', 'upstream')).toContain('refs/heads/main');

  // A context without the branch deletes nothing and says why.
  const bare = await runCli(['emit', 'after_merge', '--set', 'task=t-2', '--json'], { cwd: repo });
  const outcome = JSON.parse(bare.stdout) as TaskOutcome;
  expect(outcome.hooks.map((hook) => hook.exit_code)).toEqual([2, 2, 2]);
  expect(readFileSync(join(repo, 'runs', 't-2', 'hooks', 'after_merge-01.log'), 'utf8')).toContain('ARC_BRANCH');
  expect(git(repo, 'ls-remote', '--heads', 'upstream')).toContain('refs/heads/main');
});

test('init --preset task: the commented notification lines are valid once uncommented', async () => {
  expect((await runCli(['init', '--preset', 'task'], { cwd: scratch.path })).code).toBe(0);
  const text = readFileSync(join(scratch.path, 'hookline.toml'), 'utf8');
  expect(text).toContain('git ls-remote --exit-code --heads origin');
  const uncommented = text.replace(/^# (after_awaiting_human = \[| {2}'|\])/gm, '$1');
  expect(uncommented).not.toBe(text);
  writeFileSync(join(scratch.path, 'hookline.toml'), uncommented);
  expect(await runCli(['validate'], { cwd: scratch.path })).toMatchObject({
    code: 0,
    stdout: '✓ valid: 5 hooks in hookline.toml\n',
  });
  const listed = JSON.parse((await runCli(['list', '--json'], { cwd: scratch.path })).stdout) as Array<{
    event: string;
    options: { command: string };
  }>;
  const notifications = listed
    .filter((hook) => hook.event === 'after_awaiting_human')
    .map((hook) => hook.options.command);
  expect(notifications).toHaveLength(2);
  // Only the repository's name, the task id and the phase.
  for (const command of notifications)
    expect(
      command
        .match(/\$[A-Z_]+/g)!
        .filter((name) => name !== '$BARK_KEY')
        .sort(),
    ).toEqual(['$ARC_STATE', '$ARC_TASK']);
});

test('init --preset agent: the guard, formatter and linter hooks validate and run', async () => {
  expect((await runCli(['init', '--preset', 'agent'], { cwd: scratch.path })).code).toBe(0);
  expect(await runCli(['validate'], { cwd: scratch.path })).toMatchObject({
    code: 0,
    stdout: '✓ valid: 3 hooks in hookline.toml\n',
  });
  for (const tool of ['file_write', 'file_edit']) {
    const result = await runCli(['emit', 'post_tool_use', '--set', `tool_name=${tool}`, '--json'], {
      cwd: scratch.path,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      decision: 'proceed',
      hooks: [{ status: 'ok', exit_code: 0 }],
      warnings: [],
    });
  }
  const shell = (command: string) =>
    runCli(['emit', 'pre_tool_use', '--set', 'tool_name=shell', '--set', `tool_input={"command":"${command}"}`], {
      cwd: scratch.path,
    });
  const denied = await shell('rm -rf build');
  expect(denied.code).toBe(2);
  expect(denied.stderr + denied.stdout).toContain('no rm -rf: delete files one by one');
  expect((await shell('ls')).code).toBe(0);
});

test('init --preset claude: .claude/settings.json whose guard blocks a recursive delete of / and lets ls through', async () => {
  const init = await runCli(['init', '--preset', 'claude'], { cwd: scratch.path });
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toContain('wrote .claude/settings.json');
  const home = { HOME: join(scratch.path, 'home') };
  expect(await runCli(['validate', '--preset', 'claude'], { cwd: scratch.path, env: home })).toMatchObject({
    code: 0,
    stdout: '✓ valid: 1 hook in .claude/settings.json\n',
  });
  const call = (command: string) =>
    JSON.stringify({
      session_id: 's1',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
      cwd: scratch.path,
    });
  writeFileSync(join(scratch.path, 'delete.json'), call('rm -rf /'));
  writeFileSync(join(scratch.path, 'list.json'), call('ls -la'));
  const blocked = await runCli(['emit', 'PreToolUse', '--preset', 'claude', '--context', 'delete.json', '--json'], {
    cwd: scratch.path,
    env: home,
  });
  expect(blocked.code, blocked.stderr).toBe(2);
  expect(JSON.parse(blocked.stdout)).toMatchObject({
    decision: 'block',
    reason: 'refusing a recursive delete of / or the home folder',
  });
  const allowed = await runCli(['emit', 'PreToolUse', '--preset', 'claude', '--context', 'list.json', '--json'], {
    cwd: scratch.path,
    env: home,
  });
  expect(allowed.code, allowed.stderr).toBe(0);
  expect(JSON.parse(allowed.stdout)).toMatchObject({ decision: 'proceed', hooks: [{ status: 'ok', exit_code: 0 }] });
});

test('init --preset refuses an unknown preset, and --remote outside task', async () => {
  const unknown = await runCli(['init', '--preset', 'agnet'], { cwd: scratch.path });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('unknown preset "agnet"; --preset takes arc, task, agent, claude.');
  const remote = await runCli(['init', '--remote', 'upstream'], { cwd: scratch.path });
  expect(remote.code).toBe(1);
  expect(remote.stderr).toContain('--remote is for --preset task only.');
  const bad = await runCli(['init', '--preset', 'task', '--remote', 'x; rm -rf /'], { cwd: scratch.path });
  expect(bad.code).toBe(1);
  expect(existsSync(join(scratch.path, 'hookline.toml'))).toBe(false);
});
