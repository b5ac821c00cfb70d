import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, runCli, makeScratch, type Scratch } from '../../test-support/run-cli.ts';
import { isRunning, killGroup, waitFor } from '../../test-support/processes.ts';
import { daemonEnv, startDaemon, type TestDaemon } from '../../test-support/serve-daemon.ts';

// `hookline serve` as users run it: a real daemon process, called over real TCP and Unix sockets,
// running real command hooks in a real project folder.

// A guard that blocks `rm -rf` and leaves a file named after each call it saw, so that a test can
// tell whether it ran at all.
const GUARD_CONFIG = `preset = "agent"

[[hooks]]
name = "no-rm-rf"
event = "pre_tool_use"
tool_name = "Bash"
action = { type = "shell", command = "touch ran-$(date +%s%N); if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi" }
`;

let scratch: Scratch;
let env: Record<string, string>;
let project: string;
let daemon: TestDaemon | undefined;

beforeEach(() => {
  scratch = makeScratch();
  env = daemonEnv(scratch);
  project = join(scratch.path, 'project');
  scratch.write('project/hookline.toml', GUARD_CONFIG);
});

afterEach(async () => {
  if (daemon !== undefined && daemon.child.exitCode === null) {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
  }
  // Whatever daemon the test's user still has (one a test started by another way) ends too.
  const state = join(env['XDG_STATE_HOME']!, 'hookline', 'serve.json');
  if (existsSync(state)) {
    try {
      process.kill((JSON.parse(readFileSync(state, 'utf8')) as { pid: number }).pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  daemon = undefined;
  scratch.cleanup();
});

const call = (command: string) => ({
  session_id: 's-1',
  cwd: project,
  tool_name: 'Bash',
  tool_input: { command },
});
const runs = () => readdir(project).filter((name) => name.startsWith('ran-')).length;

function readdir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

async function trust(dir = project) {
  const trusted = await runCli(['trust'], { cwd: dir, env });
  expect(trusted.code, trusted.stderr).toBe(0);
}

describe('hookline serve', () => {
  it('answers over HTTP with the token and over the Unix socket, with the guard deciding', async () => {
    await trust();
    daemon = await startDaemon(scratch, env);
    const blocked = await daemon.post('/emit/pre_tool_use', call('rm -rf build'));
    expect(blocked.status).toBe(200);
    expect(blocked.headers['hookline-exit-code']).toBe('2');
    expect(JSON.parse(blocked.body)).toMatchObject({ decision: 'block', reason: 'no rm -rf here' });
    const allowed = await daemon.post('/emit/pre_tool_use', call('ls'), { via: 'socket' });
    expect(JSON.parse(allowed.body)).toMatchObject({ decision: 'proceed' });
    expect(runs()).toBe(2);
    // The socket and its folder are the user's alone.
    expect(statSync(daemon.socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(env['XDG_RUNTIME_DIR']!, 'hookline')).mode & 0o777).toBe(0o700);
    expect(statSync(join(env['XDG_STATE_HOME']!, 'hookline', 'serve-token')).mode & 0o777).toBe(0o600);
  });

  it('answers 401 to a TCP request without the token, or with a wrong one, and runs nothing', async () => {
    await trust();
    daemon = await startDaemon(scratch, env);
    const without = await daemon.post('/emit/pre_tool_use', call('ls'), { token: false });
    expect(without.status).toBe(401);
    const wrong = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: daemon!.port,
          method: 'POST',
          path: '/emit/pre_tool_use',
          headers: { authorization: `Bearer ${'0'.repeat(64)}` },
        },
        (response) => resolve(response.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end(JSON.stringify(call('ls')));
    });
    expect(wrong).toBe(401);
    expect(runs()).toBe(0);
    // The same call with the token runs the hook: the count above could have moved.
    await daemon.post('/emit/pre_tool_use', call('ls'));
    expect(runs()).toBe(1);
  });

  it('keeps the last good config answering when an edit makes it invalid, and says so in answers and status', async () => {
    await trust();
    daemon = await startDaemon(scratch, env);
    expect(JSON.parse((await daemon.post('/emit/pre_tool_use', call('rm -rf x'))).body).decision).toBe('block');
    writeFileSync(join(project, 'hookline.toml'), `${GUARD_CONFIG}\n[[hooks]\nbroken = `);
    await trust();
    const answer = JSON.parse((await daemon.post('/emit/pre_tool_use', call('rm -rf x'))).body);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toBe('no rm -rf here');
    expect(answer.system_messages.join(' ')).toMatch(/invalid, so the last good one is still in use/);
    const status = await runCli(['serve', 'status', '--json'], { cwd: scratch.path, env });
    const projects = JSON.parse(status.stdout).projects as Array<{ project: string; state: string; problem?: string }>;
    expect(projects.find((entry) => entry.project === project)).toMatchObject({ state: 'stale' });
    expect(projects.find((entry) => entry.project === project)!.problem).toMatch(/hookline\.toml/);
    // Fixed again: the new config replaces the old, and the notice is gone.
    writeFileSync(join(project, 'hookline.toml'), GUARD_CONFIG.replace('no rm -rf here', 'still no rm -rf'));
    await trust();
    const fixed = JSON.parse((await daemon.post('/emit/pre_tool_use', call('rm -rf x'))).body);
    expect(fixed).toMatchObject({ decision: 'block', reason: 'still no rm -rf' });
    expect(fixed.system_messages).toBeUndefined();
  });

  it('runs nothing of an untrusted or changed project config, and denies the tool naming `hookline trust`', async () => {
    daemon = await startDaemon(scratch, env);
    const untrusted = JSON.parse((await daemon.post('/emit/pre_tool_use', call('ls'))).body);
    expect(untrusted.decision).toBe('block');
    expect(untrusted.reason).toContain('hookline trust');
    expect(runs()).toBe(0);
    await trust();
    expect(JSON.parse((await daemon.post('/emit/pre_tool_use', call('ls'))).body).decision).toBe('proceed');
    expect(runs()).toBe(1);
    // An edit after the trust makes it untrusted again.
    writeFileSync(join(project, 'hookline.toml'), GUARD_CONFIG.replace('rm -rf', 'rm -r'));
    const changed = JSON.parse((await daemon.post('/emit/pre_tool_use', call('ls'))).body);
    expect(changed.decision).toBe('block');
    expect(changed.reason).toMatch(/has changed since it was trusted.*hookline trust/);
    expect(runs()).toBe(1);
  });

  it("sees an edit to any file trust covers at the next call, also an agent's settings this route does not read", async () => {
    await trust();
    daemon = await startDaemon(scratch, env);
    expect(JSON.parse((await daemon.post('/emit/pre_tool_use', call('ls'))).body).decision).toBe('proceed');
    // Claude Code's project settings: hashed by `hookline trust`, though a plain emit reads only hookline.toml.
    scratch.write('project/.claude/settings.json', '{ "hooks": {} }\n');
    const changed = JSON.parse((await daemon.post('/emit/pre_tool_use', call('ls'))).body);
    expect(changed.decision).toBe('block');
    expect(changed.reason).toMatch(/has changed since it was trusted.*hookline trust/);
    expect(runs()).toBe(1);
    await trust();
    expect(JSON.parse((await daemon.post('/emit/pre_tool_use', call('ls'))).body).decision).toBe('proceed');
    expect(runs()).toBe(2);
  });

  it('on SIGTERM answers the request under way, lets its hook finish, removes its files and exits 0', async () => {
    scratch.write(
      'project/hookline.toml',
      `preset = "agent"

[[hooks]]
name = "slow"
event = "pre_tool_use"
action = { type = "shell", command = "touch started; sleep 1; touch finished; echo 'slow says no' >&2; exit 2" }
`,
    );
    await trust();
    daemon = await startDaemon(scratch, env);
    const answer = daemon.post('/emit/pre_tool_use', call('ls'), { via: 'socket' });
    await waitFor('the hook to start', () => existsSync(join(project, 'started')), 30_000);
    daemon.child.kill('SIGTERM');
    const reply = await answer;
    expect(JSON.parse(reply.body)).toMatchObject({ decision: 'block', reason: 'slow says no' });
    const ended = await daemon.exited;
    expect(ended.code).toBe(0);
    expect(existsSync(join(project, 'finished'))).toBe(true);
    expect(existsSync(daemon.socket)).toBe(false);
    expect(existsSync(join(env['XDG_STATE_HOME']!, 'hookline', 'serve.json'))).toBe(false);
    const lines = ended.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string });
    expect(lines.map((line) => line.msg)).toContain('stopped');
  });

  it("resumes the durable hooks a killed daemon left in a trusted project's journal when it starts again", async () => {
    // A durable hook notes each start, then waits for `release` (bounded, should the test fail first).
    const slow =
      'echo $$ > hook.pid; echo started >> side.txt; i=0; while [ ! -f release ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done';
    scratch.write(
      'project/hookline.toml',
      `[[hooks]]\nname = "notify"\nevent = "run_complete"\ndurable = true\nsandbox = false\ncommand = '${slow}'\n`,
    );
    const starts = () =>
      existsSync(join(project, 'side.txt'))
        ? readFileSync(join(project, 'side.txt'), 'utf8').split('\n').filter(Boolean).length
        : 0;
    await trust();
    daemon = await startDaemon(scratch, env);
    const answer = await daemon.post('/emit/run_complete', { cwd: project, run_id: 'r1', workflow_name: 'ship' });
    expect(JSON.parse(answer.body)).toMatchObject({ decision: 'proceed' });
    await waitFor('the durable hook to start', () => starts() === 1, 30_000);
    const hook = Number(readFileSync(join(project, 'hook.pid'), 'utf8').trim());
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    killGroup(hook);
    // Started again with no request at all: the trusted project's journal is resumed at start.
    daemon = await startDaemon(scratch, env);
    await waitFor('the resumed durable hook to start', () => starts() === 2, 60_000);
    writeFileSync(join(project, 'release'), '');
  });

  it('forks command hooks from its resident spawner, which leaves with the daemon, even a killed one', async () => {
    scratch.write(
      'project/hookline.toml',
      `[[hooks]]\nname = "parent"\nevent = "stage_start"\nsandbox = false\ncommand = 'echo $PPID >> parents'\n`,
    );
    await trust();
    daemon = await startDaemon(scratch, env);
    const context = { cwd: project, run_id: 'r1', workflow_name: 'ship', node_id: 'build' };
    for (let index = 0; index < 2; index++)
      expect(JSON.parse((await daemon.post('/emit/stage_start', context)).body)).toMatchObject({ decision: 'proceed' });
    const parents = readFileSync(join(project, 'parents'), 'utf8').trim().split('\n').map(Number);
    // One spawner for both hooks: a child of the daemon, not the daemon itself.
    expect(parents).toHaveLength(2);
    expect(parents[1]).toBe(parents[0]);
    const spawner = parents[0]!;
    expect(spawner).not.toBe(daemon.child.pid);
    const stat = readFileSync(`/proc/${spawner}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])).toBe(daemon.child.pid);
    expect(readFileSync(`/proc/${spawner}/cmdline`, 'utf8')).toContain('hookline-spawner');
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    await waitFor('the spawner to exit after the daemon', () => !isRunning(spawner));
  });

  it('status and stop find the daemon by its state file; a second daemon refuses to start', async () => {
    daemon = await startDaemon(scratch, env);
    const status = await runCli(['serve', 'status'], { cwd: scratch.path, env });
    expect(status.stdout).toContain(`127.0.0.1:${daemon.port}`);
    const second = await runCli(['serve'], { cwd: scratch.path, env });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already listens/);
    const stop = await runCli(['serve', 'stop'], { cwd: scratch.path, env });
    expect(stop.stdout).toMatch(/stopped/);
    expect((await daemon.exited).code).toBe(0);
    const after = await runCli(['serve', 'status'], { cwd: scratch.path, env });
    expect(after.code).toBe(3);
    expect(after.stdout).toMatch(/not running/);
    expect(readFileSync(join(env['XDG_STATE_HOME']!, 'hookline', 'serve-token'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });
});

describe('hookline install claude --daemon: the shim', () => {
  const CLAUDE_GUARD = `preset = "agent"

[[hooks]]
name = "no-rm-rf"
event = "pre_tool_use"
tool_name = "shell"
action = { type = "shell", command = "touch ran-$(date +%s%N); if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi" }
`;
  const claudeCall = (command: string) =>
    JSON.stringify({
      session_id: 's-1',
      transcript_path: join(project, 'transcript.jsonl'),
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
    });

  /** Runs the command the installed PreToolUse entry runs, as Claude Code does (`bash -c`), with the payload. */
  function runEntry(command: string, input: string, path: string) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', command], { cwd: project, env: { ...process.env, ...env, PATH: path } });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(input);
    });
  }

  it('answers through the daemon, and after the daemon is killed through the bridge: the guard still blocks', async () => {
    scratch.write('project/hookline.toml', CLAUDE_GUARD);
    // `hookline` on the agent's PATH, as a user's global install would be: the shim's fallback runs it.
    const bin = join(scratch.path, 'bin');
    scratch.write('bin/hookline', `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
    chmodSync(join(bin, 'hookline'), 0o755);
    const path = `${bin}:${process.env['PATH'] ?? ''}`;
    const installed = await runCli(['install', 'claude', '--daemon'], { cwd: project, env });
    expect(installed.code, installed.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'));
    const entry = JSON.stringify(settings.hooks.PreToolUse);
    const command = (settings.hooks.PreToolUse[0].hooks[0] as { command: string }).command;
    expect(command).toContain('/hookline/shims/claude');
    expect(entry).not.toContain('hookline bridge');
    await trust();
    daemon = await startDaemon(scratch, env);

    const viaDaemon = await runEntry(command, claudeCall('rm -rf build'), path);
    expect(viaDaemon.code).toBe(0);
    expect(JSON.parse(viaDaemon.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm -rf here',
    });
    // It was the daemon that answered.
    const status = JSON.parse((await daemon.get('/status')).body) as { projects: Array<{ answered: number }> };
    expect(status.projects.reduce((sum, entry) => sum + entry.answered, 0)).toBe(1);

    // Killed, not stopped: its port file is left behind and nothing listens there.
    const { pid } = JSON.parse(readFileSync(join(env['XDG_STATE_HOME']!, 'hookline', 'serve.json'), 'utf8')) as {
      pid: number;
    };
    process.kill(pid, 'SIGKILL');
    await daemon.exited;
    const viaBridge = await runEntry(command, claudeCall('rm -rf build'), path);
    expect(viaBridge.code).toBe(0);
    expect(JSON.parse(viaBridge.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm -rf here',
    });
    const allowed = await runEntry(command, claudeCall('ls'), path);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).not.toContain('deny');
    // Every call ran the guard: once in the daemon, twice in the bridge.
    expect(runs()).toBe(3);

    // Uninstall recognises the shim's entries as Hookline's.
    const uninstalled = await runCli(['uninstall', 'claude'], { cwd: project, env });
    expect(uninstalled.code, uninstalled.stderr).toBe(0);
    // The settings held nothing but the shim's entries, so the file is gone.
    expect(uninstalled.stdout).toContain('held nothing else, so it was deleted');
    expect(existsSync(join(project, '.claude', 'settings.json'))).toBe(false);
  });

  it('GitHub Copilot CLI: the entry names its event, through the daemon and through the bridge', async () => {
    scratch.write('project/hookline.toml', CLAUDE_GUARD);
    const bin = join(scratch.path, 'bin');
    scratch.write('bin/hookline', `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
    chmodSync(join(bin, 'hookline'), 0o755);
    const path = `${bin}:${process.env['PATH'] ?? ''}`;
    const installed = await runCli(['install', 'copilot', '--daemon'], { cwd: project, env });
    expect(installed.code, installed.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(project, '.github', 'hooks', 'hookline.json'), 'utf8'));
    const command = (settings.hooks.preToolUse[0] as { bash: string }).bash;
    expect(command).toMatch(/\/hookline\/shims\/copilot' --event preToolUse$/);
    // Copilot's payload names no event: only the entry's --event does.
    const copilotCall = (line: string) =>
      JSON.stringify({ sessionId: 's-1', timestamp: 1, cwd: project, toolName: 'bash', toolArgs: { command: line } });
    await trust();
    daemon = await startDaemon(scratch, env);
    const viaDaemon = await runEntry(command, copilotCall('rm -rf build'), path);
    expect(JSON.parse(viaDaemon.stdout)).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm -rf here',
    });
    const status = JSON.parse((await daemon.get('/status')).body) as { projects: Array<{ answered: number }> };
    expect(status.projects.reduce((sum, entry) => sum + entry.answered, 0)).toBe(1);
    const { pid } = JSON.parse(readFileSync(join(env['XDG_STATE_HOME']!, 'hookline', 'serve.json'), 'utf8')) as {
      pid: number;
    };
    process.kill(pid, 'SIGKILL');
    await daemon.exited;
    const viaBridge = await runEntry(command, copilotCall('rm -rf build'), path);
    expect(JSON.parse(viaBridge.stdout)).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm -rf here',
    });
    expect(JSON.parse((await runEntry(command, copilotCall('ls'), path)).stdout)).toEqual({});
  });

  it("keeps the daemon's trust rule when it falls back: an untrusted project runs nothing, the call is denied", async () => {
    scratch.write('project/hookline.toml', CLAUDE_GUARD);
    const bin = join(scratch.path, 'bin');
    scratch.write('bin/hookline', `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
    chmodSync(join(bin, 'hookline'), 0o755);
    const path = `${bin}:${process.env['PATH'] ?? ''}`;
    const installed = await runCli(['install', 'claude', '--daemon'], { cwd: project, env });
    expect(installed.code, installed.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'));
    const command = (settings.hooks.PreToolUse[0].hooks[0] as { command: string }).command;
    // No daemon runs, and the project was never trusted.
    const denied = await runEntry(command, claudeCall('ls'), path);
    expect(denied.code).toBe(0);
    const output = JSON.parse(denied.stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe('deny');
    expect(output.permissionDecisionReason).toMatch(/has not been trusted.*hookline trust/);
    expect(runs()).toBe(0);
    // Trusted, the same fallback runs the project's guard.
    await trust();
    const allowed = await runEntry(command, claudeCall('ls'), path);
    expect(allowed.stdout).not.toContain('deny');
    expect(runs()).toBe(1);
  });

  it('answers over HTTP exactly what hookline bridge claude prints', async () => {
    scratch.write('project/hookline.toml', CLAUDE_GUARD);
    await trust();
    daemon = await startDaemon(scratch, env);
    for (const command of ['rm -rf build', 'ls']) {
      const served = await daemon.post('/hooks/claude/PreToolUse', JSON.parse(claudeCall(command)));
      const bridged = await runCli(['bridge', 'claude'], { cwd: project, env, input: claudeCall(command) });
      expect(served.status).toBe(200);
      expect(served.body).toBe(bridged.stdout);
      expect(served.headers['hookline-exit-code']).toBe(String(bridged.code));
    }
  });
});
