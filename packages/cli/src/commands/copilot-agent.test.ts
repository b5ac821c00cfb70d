// `hookline install|bridge|doctor|uninstall copilot` on real files, through the built CLI: GitHub
// Copilot CLI's payloads (as `@github/copilot` 1.0.102 sends them) do not name their event, so the
// installed entries do, and the bridge must refuse a guard whenever it cannot decide.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
  scratch.write('project/.keep', '');
});
afterEach(() => scratch.cleanup());

const cwd = () => join(scratch.path, 'project');
const run = (args: string[], input?: string) =>
  runCli(args, { cwd: cwd(), env: { HOME: join(scratch.path, 'home') }, ...(input === undefined ? {} : { input }) });
const settings = () => JSON.parse(readFileSync(join(cwd(), '.github/hooks/hookline.json'), 'utf8'));
const COMMAND = `${process.execPath} ${fileURLToPath(new URL('../../bin/hookline.js', import.meta.url))}`;
const GUARD = `preset = "agent"
[[hooks]]
name = "no-rm"
event = "pre_tool_use"
tool_name = "shell"
[hooks.action]
type = "shell"
command = '''grep -q 'rm -rf' && { echo "no rm -rf" >&2; exit 2; } || exit 0'''
`;
const pre = (command: string) =>
  JSON.stringify({
    sessionId: 's-1',
    timestamp: 1796512539571,
    cwd: cwd(),
    toolName: 'bash',
    toolArgs: { command, description: 'd' },
  });

describe('hookline install copilot', () => {
  test('writes .github/hooks/hookline.json, one flat entry per event naming it; uninstall removes them', async () => {
    scratch.write('project/hookline.toml', GUARD);
    const installed = await run(['install', 'copilot', '--command', COMMAND]);
    expect(installed.code).toBe(0);
    expect(settings()).toEqual({
      version: 1,
      hooks: {
        preToolUse: [{ type: 'command', bash: `${COMMAND} bridge copilot --event preToolUse`, timeoutSec: 60 }],
      },
    });
    expect((await run(['install', 'copilot', '--command', COMMAND])).stdout).toContain('nothing changed');
    const doctor = await run(['doctor', 'copilot', '--json']);
    expect(doctor.code).toBe(0);
    expect(JSON.parse(doctor.stdout)).toMatchObject({
      healthy: true,
      bridge: { form: 'canonical', event: 'pre_tool_use', hooks: [{ name: 'no-rm', status: 'ok' }] },
    });
    const uninstalled = await run(['uninstall', 'copilot']);
    expect(uninstalled.code).toBe(0);
    // The file held nothing but Hookline's entries: it goes, its last text kept as the backup.
    expect(uninstalled.stdout).toContain('held nothing else, so it was deleted');
    expect(existsSync(join(scratch.path, 'project/.github/hooks/hookline.json'))).toBe(false);
    expect(readFileSync(join(scratch.path, 'project/.github/hooks/hookline.json.hookline-backup'), 'utf8')).toContain(
      'bridge copilot',
    );
  });
});

describe('hookline bridge copilot', () => {
  test('a guard denies with its reason; an allowed call answers {}', async () => {
    scratch.write('project/hookline.toml', GUARD);
    const denied = await run(['bridge', 'copilot', '--event', 'preToolUse'], pre('rm -rf build'));
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' });
    const allowed = await run(['bridge', 'copilot', '--event', 'preToolUse'], pre('ls'));
    expect(JSON.parse(allowed.stdout)).toEqual({});
  });

  test('failure is never approval: a broken config, a payload without its event, input that is not JSON', async () => {
    scratch.write('project/hookline.toml', `${GUARD}\n[[hooks]\n`);
    const broken = JSON.parse((await run(['bridge', 'copilot', '--event', 'preToolUse'], pre('ls'))).stdout);
    expect(broken.permissionDecision).toBe('deny');
    expect(broken.permissionDecisionReason).toContain('cannot be loaded');
    scratch.write('project/hookline.toml', GUARD);
    const nameless = JSON.parse((await run(['bridge', 'copilot'], pre('ls'))).stdout);
    expect(nameless).toMatchObject({ permissionDecision: 'deny' });
    expect(nameless.permissionDecisionReason).toContain('--event');
    const garbage = await run(['bridge', 'copilot', '--event', 'preToolUse'], 'not json');
    expect(JSON.parse(garbage.stdout).permissionDecision).toBe('deny');
  });
});
