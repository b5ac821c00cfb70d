// `hookline install|uninstall|doctor claude` on real files, through the built CLI.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
  scratch.write('project/.keep', '');
});
afterEach(() => scratch.cleanup());

const run = (...args: string[]) =>
  runCli(args, { cwd: join(scratch.path, 'project'), env: { HOME: join(scratch.path, 'home') } });
const settingsFile = () => join(scratch.path, 'project/.claude/settings.json');
const read = () => JSON.parse(readFileSync(settingsFile(), 'utf8'));
const USERS_OWN = {
  model: 'opus',
  permissions: { allow: ['Bash(ls)'] },
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './my-guard.sh' }] }] },
};
// How the tests' agent starts this very build of Hookline: the package's own `hookline` executable.
const COMMAND = `${process.execPath} ${fileURLToPath(new URL('../../bin/hookline.js', import.meta.url))}`;

describe('hookline install claude', () => {
  test("merges the entries with the user's own; a second run changes nothing; the previous file is kept", async () => {
    const original = `${JSON.stringify(USERS_OWN, null, 2)}\n`;
    scratch.write('project/.claude/settings.json', original);
    const first = await run('install', 'claude', '--command', COMMAND);
    expect(first.code).toBe(0);
    const installed = read();
    expect(installed.model).toBe('opus');
    expect(installed.permissions).toEqual(USERS_OWN.permissions);
    expect(installed.hooks.PreToolUse[0]).toEqual(USERS_OWN.hooks.PreToolUse[0]);
    expect(installed.hooks.PreToolUse[1]).toEqual({
      matcher: '*',
      hooks: [{ type: 'command', command: `${COMMAND} bridge claude`, timeout: 60, onFailure: 'block' }],
    });
    expect(installed.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: `${COMMAND} bridge claude`, timeout: 60 }] },
    ]);
    expect(readFileSync(`${settingsFile()}.hookline-backup`, 'utf8')).toBe(original);
    const text = readFileSync(settingsFile(), 'utf8');
    const second = await run('install', 'claude', '--command', COMMAND);
    expect(second.stdout).toContain('nothing changed');
    expect(readFileSync(settingsFile(), 'utf8')).toBe(text);
  });

  test('options go into the command line; installing with others replaces the earlier entries', async () => {
    await run('install', 'claude', '--command', COMMAND);
    await run(
      'install',
      'claude',
      '--command',
      COMMAND,
      '--config',
      'my hooks.json',
      '--preset',
      'claude',
      '--deadline',
      '20',
    );
    const entries = read().hooks.PreToolUse;
    expect(entries).toHaveLength(1);
    expect(entries[0].hooks[0]).toMatchObject({
      command: `${COMMAND} bridge claude --config 'my hooks.json' --preset claude --deadline 20`,
      timeout: 25,
    });
  });

  test('only the events the config has hooks for get an entry; a config with none is refused', async () => {
    scratch.write(
      'project/hookline.toml',
      'preset = "agent"\n[[hooks]]\nevent = "pre_tool_use"\ntool_name = "shell"\naction = { type = "shell", command = "exit 0" }\n',
    );
    const result = await run('install', 'claude', '--command', COMMAND);
    expect(result.stdout).toContain('for PreToolUse (the events the config has hooks for');
    expect(Object.keys(read().hooks)).toEqual(['PreToolUse']);
    scratch.write(
      'project/hookline.toml',
      'preset = "agent"\n[[hooks]]\nevent = "post_tool_use"\naction = { type = "shell", command = "exit 0" }\n',
    );
    const doctor = await run('doctor', 'claude');
    expect(doctor.stdout).toContain('the config has hooks for PostToolUse, PostToolUseFailure, but no entry');
    await run('install', 'claude', '--command', COMMAND);
    expect(Object.keys(read().hooks)).toEqual(['PostToolUse', 'PostToolUseFailure']);
    scratch.write('project/hookline.toml', 'preset = "agent"\n');
    const none = await run('install', 'claude', '--command', COMMAND);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--all-events');
    scratch.write('project/hookline.toml', 'preset = "arc"\n');
    expect((await run('install', 'claude', '--command', COMMAND)).stderr).toContain('preset "agent" or "claude"');
  });

  test('--dry-run prints the change and writes nothing', async () => {
    scratch.write('project/.claude/settings.json', '{"model": "opus"}\n');
    const result = await run('install', 'claude', '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('+     "PreToolUse": [');
    expect(result.stdout).toContain('"model": "opus"');
    expect(readFileSync(settingsFile(), 'utf8')).toBe('{"model": "opus"}\n');
    expect(existsSync(`${settingsFile()}.hookline-backup`)).toBe(false);
  });

  test('a file that cannot be parsed is left untouched, with a clear error', async () => {
    scratch.write('project/.claude/settings.json', '{"hooks": {,}}');
    const result = await run('install', 'claude');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('.claude/settings.json is not valid JSON');
    expect(result.stderr).toContain('left untouched');
    expect(readFileSync(settingsFile(), 'utf8')).toBe('{"hooks": {,}}');
  });

  test("--user writes the user's settings under HOME", async () => {
    scratch.write('project/.keep', '');
    expect((await run('install', 'claude', '--user', '--command', COMMAND)).code).toBe(0);
    expect(existsSync(join(scratch.path, 'home/.claude/settings.json'))).toBe(true);
    expect(existsSync(settingsFile())).toBe(false);
  });
});

describe('hookline uninstall claude', () => {
  test("removes only Hookline's entries", async () => {
    scratch.write('project/.claude/settings.json', JSON.stringify(USERS_OWN));
    await run('install', 'claude', '--command', COMMAND);
    const result = await run('uninstall', 'claude');
    expect(result.code).toBe(0);
    expect(read()).toEqual(USERS_OWN);
    expect((await run('uninstall', 'claude')).stdout).toContain('nothing changed');
  });

  test('a file that held only Hookline (Cursor\'s hooks.json made by install) is deleted, not left as {"version": 1}', async () => {
    expect((await run('install', 'cursor', '--command', COMMAND, '--all-events')).code).toBe(0);
    const hooksFile = join(scratch.path, 'project/.cursor/hooks.json');
    expect(existsSync(hooksFile)).toBe(true);
    const dryRun = await run('uninstall', 'cursor', '--dry-run');
    expect(dryRun.stdout).toContain("holds nothing but Hookline's entries; it would be deleted");
    expect(existsSync(hooksFile)).toBe(true);
    const result = await run('uninstall', 'cursor');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('held nothing else, so it was deleted');
    expect(existsSync(hooksFile)).toBe(false);
    // With a hook of the user's beside Hookline's, the file stays with the user's hook.
    const own = { version: 1, hooks: { beforeShellExecution: [{ command: './my-guard.sh' }] } };
    scratch.write('project/.cursor/hooks.json', JSON.stringify(own));
    await run('install', 'cursor', '--command', COMMAND, '--all-events');
    expect((await run('uninstall', 'cursor')).code).toBe(0);
    expect(JSON.parse(readFileSync(hooksFile, 'utf8'))).toEqual(own);
  });
});

describe('hookline doctor claude', () => {
  test('not installed: says so and how to fix it (exit 1)', async () => {
    scratch.write('project/hookline.toml', 'preset = "agent"\n');
    const result = await run('doctor', 'claude');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('hookline install claude');
  });

  test('installed: sends a synthetic call through the entry and names the hooks that ran', async () => {
    scratch.write(
      'project/hookline.toml',
      'preset = "agent"\n[[hooks]]\nname = "guard"\nevent = "pre_tool_use"\ntool_name = "shell"\naction = { type = "shell", command = "exit 0" }\n',
    );
    await run('install', 'claude', '--command', COMMAND);
    const result = await run('doctor', 'claude', '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      healthy: true,
      bridge: { preset: 'agent', form: 'canonical', event: 'pre_tool_use', hooks: [{ name: 'guard', status: 'ok' }] },
    });
  });

  test("a command the agent's shell cannot start, and a config with no hook for the call, are reported", async () => {
    scratch.write('project/hookline.toml', 'preset = "agent"\n');
    await run('install', 'claude', '--command', '/nonexistent/hookline', '--all-events');
    const missing = await run('doctor', 'claude');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('could not start');
    await run('install', 'claude', '--command', COMMAND, '--all-events');
    const idle = await run('doctor', 'claude');
    expect(idle.code).toBe(1);
    expect(idle.stdout).toContain('no hook of the config was selected for pre_tool_use');
  });

  test('no Hookline config: reported with how to write one', async () => {
    await run('install', 'claude', '--command', COMMAND);
    const result = await run('doctor', 'claude');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('found no Hookline config');
  });

  test("an entry whose timeout is not above the bridge's deadline is reported", async () => {
    scratch.write('project/hookline.toml', 'preset = "agent"\n');
    await run('install', 'claude', '--command', COMMAND, '--all-events');
    const settings = read();
    for (const group of settings.hooks.PreToolUse) group.hooks[0].timeout = 30;
    scratch.write('project/.claude/settings.json', JSON.stringify(settings));
    const result = await run('doctor', 'claude');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("the entry's timeout (30 s) is not above the bridge's deadline (55 s)");
    // A shorter --deadline of its own is read from the entry's command line.
    await run('install', 'claude', '--command', COMMAND, '--deadline', '20', '--all-events');
    expect((await run('doctor', 'claude')).stdout).not.toContain('is not above');
  });

  test('disableAllHooks is reported', async () => {
    scratch.write('project/.claude/settings.json', '{"disableAllHooks": true}');
    await run('install', 'claude', '--command', COMMAND);
    expect((await run('doctor', 'claude')).stdout).toContain('"disableAllHooks": true');
  });

  test('disableAllHooks in .claude/settings.local.json is reported: Claude Code reads that file too', async () => {
    scratch.write('project/hookline.toml', 'preset = "agent"\n');
    await run('install', 'claude', '--command', COMMAND, '--all-events');
    expect((await run('doctor', 'claude')).stdout).not.toContain('disableAllHooks');
    scratch.write('project/.claude/settings.local.json', '{"disableAllHooks": true}');
    const result = await run('doctor', 'claude');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('.claude/settings.local.json: "disableAllHooks": true');
  });
});

describe('what install says of the timeout', () => {
  test('an agent whose entries take a timeout is told it; Windsurf, whose entries take none, is not', async () => {
    const claude = await run('install', 'claude', '--command', COMMAND, '--all-events');
    expect(claude.code).toBe(0);
    expect(claude.stdout).toContain('timeout 60 s');
    const windsurf = await run('install', 'windsurf', '--command', COMMAND, '--all-events');
    expect(windsurf.code).toBe(0);
    expect(windsurf.stdout).toContain('.windsurf/hooks.json');
    expect(windsurf.stdout).not.toContain('timeout');
    const written = readFileSync(join(scratch.path, 'project/.windsurf/hooks.json'), 'utf8');
    expect(written).not.toContain('timeout');
  });
});
