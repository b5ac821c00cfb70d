// The script host through this package's own entry, `@hookline/runner-script/script-host`, with real
// processes: a program started without --no-node-snapshot (test-support/script-host-program.ts) sends
// its script hook to a host it starts, or restarts itself with the flag. The hookline CLI's behaviour
// over it (emit, run, stdin, faults) is tested end to end in packages/cli/src/script-hooks.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { HooklineError } from '@hookline/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { NodeFlagsRequired, scriptHookProcess } from './index.ts';

const PROGRAM = fileURLToPath(new URL('../../test-support/script-host-program.ts', import.meta.url));
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'runner-script-host-'));
});
afterEach(() => {
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.pid'))) {
    try {
      process.kill(Number(readFileSync(join(folder, name), 'utf8').trim()), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  rmSync(folder, { recursive: true, force: true });
});

interface ProgramRun {
  readonly code: number | null;
  readonly stderr: string;
  readonly printed:
    { where: string; execArgv: string[]; decision: string; hooks: Array<Record<string, unknown>> } | undefined;
}

/** Runs the program with Node's default snapshot (no flag, no NODE_OPTIONS), as the CLI starts. */
function runProgram(script: string, env: Record<string, string>): Promise<ProgramRun> {
  const child = spawn(process.execPath, [PROGRAM, script], {
    env: { PATH: process.env['PATH'] ?? '', HOOKLINE_SCRIPT_HOST_DIR: folder, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.once('close', (code) =>
      resolve({ code, stderr, printed: stdout === '' ? undefined : (JSON.parse(stdout) as ProgramRun['printed']) }),
    );
  });
}

const hostPid = (): number | undefined => {
  const pids = readdirSync(folder).filter((file) => file.endsWith('.pid'));
  return pids.length === 1 ? Number(readFileSync(join(folder, pids[0]!), 'utf8').trim()) : undefined;
};

test('a program without the flag sends its script hook to a host it starts with the flag', async () => {
  const run = await runProgram("return { decision: 'block', reason: 'from the host' }", {
    TEST_BUILD_ID: 'test-build',
  });
  expect(run.stderr).toBe('');
  expect(run.printed).toMatchObject({
    where: 'script-host',
    decision: 'block',
    hooks: [{ name: 'check', status: 'ok', decision: { decision: 'block', reason: 'from the host' } }],
  });
  expect(run.printed?.execArgv).not.toContain('--no-node-snapshot');
  const pid = hostPid();
  expect(pid).toBeDefined();
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  expect(cmdline).toContain('--no-node-snapshot');
  expect(cmdline.some((argument) => argument.endsWith(join('script-host', 'script-host.js')))).toBe(true);
  // A second run reuses it.
  const again = await runProgram('return true', { TEST_BUILD_ID: 'test-build' });
  expect(again.printed).toMatchObject({ where: 'script-host', decision: 'proceed' });
  expect(hostPid()).toBe(pid);
});

test('HOOKLINE_SCRIPT_HOST=off: NodeFlagsRequired, and its restart runs the hook in a process with the flag', async () => {
  const run = await runProgram("return { decision: 'skip', reason: 'restarted' }", {
    HOOKLINE_SCRIPT_HOST: 'off',
    TEST_BUILD_ID: 'test-build',
  });
  expect(run.stderr).toBe('restarting with --no-node-snapshot (HOOKLINE_NODE_FLAGS_REQUIRED)\n');
  expect(run.code).toBe(0);
  expect(run.printed).toMatchObject({ where: 'this-process', decision: 'skip' });
  expect(run.printed?.execArgv).toContain('--no-node-snapshot');
  expect(hostPid()).toBeUndefined();
});

test('a program without a build id never uses a host: it restarts, silently', async () => {
  const run = await runProgram('return true', {});
  expect(run.stderr).toBe('restarting with --no-node-snapshot (HOOKLINE_NODE_FLAGS_REQUIRED)\n');
  expect(run.printed).toMatchObject({ where: 'this-process', decision: 'proceed' });
  expect(readdirSync(folder).filter((file) => file.endsWith('.sock'))).toEqual([]);
});

test('a host folder open to others is refused with what to do, and the program restarts instead', async () => {
  const open = join(folder, 'open');
  mkdirSync(open);
  chmodSync(open, 0o777);
  const run = await runProgram('return true', { TEST_BUILD_ID: 'test-build', HOOKLINE_SCRIPT_HOST_DIR: open });
  expect(run.stderr).toContain(
    `not using the script host: ${open} is open to other users (mode 777); run \`chmod 700 ${open}\``,
  );
  expect(run.printed).toMatchObject({ where: 'this-process', decision: 'proceed' });
});

test('in a process started with the flag (this one), script hooks run here', () => {
  expect(process.execArgv).toContain('--no-node-snapshot');
  expect(scriptHookProcess({ HOOKLINE_SCRIPT_HOST: 'off' })).toBe('this-process');
});

test('NodeFlagsRequired is a Hookline error with its code, recognised by its marker across copies', () => {
  const error = new NodeFlagsRequired(['--no-node-snapshot'], 'why');
  expect(HooklineError.isInstance(error)).toBe(true);
  expect(NodeFlagsRequired.isInstance(error)).toBe(true);
  expect(error.code).toBe('HOOKLINE_NODE_FLAGS_REQUIRED');
  // What the CLI checks without importing this package.
  expect(Object.getOwnPropertySymbols(error)).toContain(Symbol.for('hookline.error.NodeFlagsRequired'));
  expect(NodeFlagsRequired.isInstance(new HooklineError('HOOKLINE_NODE_FLAGS_REQUIRED', 'not the class'))).toBe(false);
});
