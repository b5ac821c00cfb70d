import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { agentProject, type AgentProject } from './support/agent-project.ts';
import { BROKEN_GUARDS, GUARDS } from './support/guards.ts';

// Windsurf is an editor with no command-line client in the npm registry: these tests run the entries
// `hookline install windsurf` writes exactly as Cascade's hooks reference
// (docs.windsurf.com/windsurf/cascade/hooks) says Windsurf runs them — the command line in the
// workspace root, the documented payload on stdin — and read the exit code as that reference does:
// exit 2 blocks a pre-hook with stderr for the agent, anything else lets the action go on.

const projects: AgentProject[] = [];
afterAll(() => {
  for (const project of projects) project.remove();
});

const common = { trajectory_id: 'traj-1', execution_id: 'exec-1', timestamp: '2026-12-05T23:00:00.000Z' };
type Installed = AgentProject & { entries: Record<string, Array<{ command: string }>> };

async function installed(files: Record<string, string>): Promise<Installed> {
  const project = agentProject('windsurf', files, {}, () => ({}));
  projects.push(project);
  await project.hookline('install', 'windsurf');
  const settings = JSON.parse(readFileSync(join(project.dir, '.windsurf/hooks.json'), 'utf8'));
  return Object.assign(project, { entries: settings.hooks });
}

/** Runs the entry of `event` as Windsurf does: its command with `sh -c` in the workspace root, the payload on stdin. */
function fire(project: Installed, event: string, toolInfo: Record<string, unknown>) {
  const command = project.entries[event]?.[0]?.command;
  expect(command, `an entry for ${event}`).toBeDefined();
  const run = spawnSync('sh', ['-c', command!], {
    cwd: project.dir,
    env: project.env,
    input: JSON.stringify({ ...common, agent_action_name: event, tool_info: toolInfo }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('Windsurf through hookline bridge windsurf, with its documented payloads', () => {
  test('install writes one flat entry per event the config has hooks for, in .windsurf/hooks.json', async () => {
    const project = await installed({ 'hookline.toml': GUARDS });
    expect(project.entries).toEqual({
      pre_run_command: [{ command: 'hookline bridge windsurf', show_output: true }],
      pre_read_code: [{ command: 'hookline bridge windsurf', show_output: true }],
      pre_write_code: [{ command: 'hookline bridge windsurf', show_output: true }],
      pre_mcp_tool_use: [{ command: 'hookline bridge windsurf', show_output: true }],
      post_run_command: [{ command: 'hookline bridge windsurf', show_output: true }],
      post_read_code: [{ command: 'hookline bridge windsurf', show_output: true }],
      post_write_code: [{ command: 'hookline bridge windsurf', show_output: true }],
      post_mcp_tool_use: [{ command: 'hookline bridge windsurf', show_output: true }],
    });
  });

  test('pre_run_command: the guard blocks rm -rf with exit 2 and its reason on stderr; another command goes on', async () => {
    const project = await installed({ 'hookline.toml': GUARDS });
    const blocked = fire(project, 'pre_run_command', { command_line: 'rm -rf build', cwd: project.dir });
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stderr).toContain('no rm -rf here: delete files one by one');
    expect(fire(project, 'pre_run_command', { command_line: 'ls', cwd: project.dir }).exitCode).toBe(0);
  });

  test('a rewrite, which Cascade cannot take, refuses the command instead of running it unchanged', async () => {
    const project = await installed({ 'hookline.toml': GUARDS });
    const run = fire(project, 'pre_run_command', { command_line: 'touch original-marker', cwd: project.dir });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('touch rewritten-marker');
  });

  test('a broken config refuses the pre-hook and lets the post-hook go on', async () => {
    const project = await installed({ 'hookline.toml': BROKEN_GUARDS });
    // A broken config names no events, so install wrote every one of them.
    const pre = fire(project, 'pre_run_command', { command_line: 'ls', cwd: project.dir });
    expect(pre.exitCode).toBe(2);
    expect(pre.stderr).toContain("Hookline's hook configuration cannot be loaded");
    expect(fire(project, 'post_run_command', { command_line: 'ls', cwd: project.dir }).exitCode).toBe(0);
  });

  test('a payload that is not a Windsurf hook input is refused with exit 2 and the reason on stderr', async () => {
    const project = await installed({ 'hookline.toml': GUARDS });
    const run = spawnSync('sh', ['-c', 'hookline bridge windsurf'], {
      cwd: project.dir,
      env: project.env,
      input: JSON.stringify({ tool_info: {} }),
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('agent_action_name');
  });
});
