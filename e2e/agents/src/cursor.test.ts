import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { agentProject, type AgentProject } from './support/agent-project.ts';
import { BROKEN_GUARDS, GUARDS } from './support/guards.ts';

// Cursor has no command-line client in the npm registry: these tests run the entries `hookline
// install cursor` writes exactly as Cursor's hooks reference says Cursor runs them — the command
// line in the project folder, the documented payload on stdin — and read the answers as that
// reference describes them.

const projects: AgentProject[] = [];
afterAll(() => {
  for (const project of projects) project.remove();
});

const common = { conversation_id: 'conv-123', generation_id: 'gen-456', cursor_version: '2.0.77' };

async function installed(
  files: Record<string, string>,
): Promise<AgentProject & { entries: Record<string, Array<{ command: string }>> }> {
  const project = agentProject('cursor', files, {}, () => ({}));
  projects.push(project);
  await project.hookline('install', 'cursor');
  const settings = JSON.parse(readFileSync(join(project.dir, '.cursor/hooks.json'), 'utf8'));
  return Object.assign(project, { entries: settings.hooks });
}

/** Runs the entry of `event` as Cursor does: its command with `sh -c` in the project, the payload on stdin. */
function fire(
  project: AgentProject & { entries: Record<string, Array<{ command: string }>> },
  payload: Record<string, unknown>,
) {
  const event = String(payload['hook_event_name']);
  const command = project.entries[event]?.[0]?.command ?? 'hookline bridge cursor';
  const run = spawnSync('sh', ['-c', command], {
    cwd: project.dir,
    env: project.env,
    input: JSON.stringify({ ...common, workspace_roots: [project.dir], ...payload }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr, answer: parse(run.stdout) };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('Cursor through hookline bridge cursor, with its documented payloads', () => {
  test('install writes version 1 entries, failClosed on guards, with a timeout above the deadline', async () => {
    const project = await installed({ 'hookline.toml': GUARDS });
    const settings = JSON.parse(readFileSync(join(project.dir, '.cursor/hooks.json'), 'utf8'));
    expect(settings.version).toBe(1);
    expect(settings.hooks.beforeShellExecution).toEqual([
      { command: 'hookline bridge cursor', timeout: 60, failClosed: true },
    ]);
    expect(settings.hooks.afterShellExecution).toEqual([{ command: 'hookline bridge cursor', timeout: 60 }]);
  });

  test('beforeShellExecution: the guard denies rm -rf with its reason for the model; another command goes on', async () => {
    const project = await installed({ 'hookline.toml': GUARDS });
    const blocked = fire(project, {
      hook_event_name: 'beforeShellExecution',
      command: 'rm -rf build',
      cwd: project.dir,
    });
    expect(blocked.exitCode).toBe(0);
    expect(blocked.answer).toEqual({
      permission: 'deny',
      agent_message: 'no rm -rf here: delete files one by one',
      user_message: 'no rm -rf here: delete files one by one',
    });
    const allowed = fire(project, { hook_event_name: 'beforeShellExecution', command: 'ls', cwd: project.dir });
    expect(allowed).toMatchObject({ exitCode: 0, answer: {} });
  });

  test('preToolUse takes a rewrite; beforeShellExecution, which cannot, refuses the call instead of running it unchanged', async () => {
    const project = await installed({ 'hookline.toml': GUARDS });
    const generic = fire(project, {
      hook_event_name: 'preToolUse',
      tool_name: 'Shell',
      tool_input: { command: 'touch original-marker', cwd: project.dir },
    });
    expect(generic.answer).toEqual({
      permission: 'allow',
      updated_input: { command: 'touch rewritten-marker', cwd: project.dir },
    });
    const specific = fire(project, {
      hook_event_name: 'beforeShellExecution',
      command: 'touch original-marker',
      cwd: project.dir,
    });
    expect(specific.answer).toMatchObject({
      permission: 'deny',
      agent_message: expect.stringMatching(/cannot change the input/),
    });
  });

  test('a broken config refuses guarded calls and lets the prompt through', async () => {
    const project = await installed({ 'hookline.toml': BROKEN_GUARDS });
    const shell = fire(project, { hook_event_name: 'beforeShellExecution', command: 'ls', cwd: project.dir });
    expect(shell.answer).toMatchObject({
      permission: 'deny',
      agent_message: expect.stringContaining("Hookline's hook configuration cannot be loaded"),
    });
    const prompt = fire(project, { hook_event_name: 'beforeSubmitPrompt', prompt: 'hello', attachments: [] });
    expect(prompt.answer).toEqual({ continue: true });
  });

  test('a payload that is not a Cursor hook input is refused with exit 2 and the reason on stderr', async () => {
    const project = await installed({ 'hookline.toml': GUARDS });
    const run = spawnSync('sh', ['-c', 'hookline bridge cursor'], {
      cwd: project.dir,
      env: project.env,
      input: 'not json',
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toBe('');
  });
});
