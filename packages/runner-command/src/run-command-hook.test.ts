// How a command hook gets its context and where it runs: stdin, the context file, the preset's
// variables, the working directory, and what happens when the process cannot be started.
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { arcPreset, ConfigError, loadConfig, type Preset } from '@hookline/core';
import { describe, expect, test } from 'vitest';
import { commandRunner } from './command-runner.ts';
import { localSandbox } from './local-sandbox.ts';
import { baseContext, configText, quote, runOne } from '../test-support/hook-harness.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();

describe.each(['host', 'local'] as const)('context delivery (%s)', (placement) => {
  test('stdin carries the context JSON, byte for byte the context file', async () => {
    const stdinCopy = join(scratch(), 'stdin.json');
    const fileCopy = join(scratch(), 'file.json');
    const report = await runOne(
      { command: `cat > ${quote(stdinCopy)}; cp "$ARC_HOOK_CONTEXT" ${quote(fileCopy)}` },
      { placement, context: { cwd: scratch(), attempt: 2, note: 'ünïcode ✓', nested: { a: [1, null] } } },
    );
    expect(report.status).toBe('ok');
    const stdin = readFileSync(stdinCopy, 'utf8');
    expect(stdin).toBe(readFileSync(fileCopy, 'utf8'));
    expect(JSON.parse(stdin)).toEqual({
      event: 'stage_start',
      ...baseContext,
      cwd: scratch(),
      attempt: 2,
      note: 'ünïcode ✓',
      nested: { a: [1, null] },
    });
    // Compact JSON: no whitespace between tokens.
    expect(stdin).toBe(JSON.stringify(JSON.parse(stdin)));
  });

  test('the context file is mode 0600 while the hook runs and gone afterwards', async () => {
    const record = join(scratch(), 'record');
    const report = await runOne(
      { command: `stat -c %a "$ARC_HOOK_CONTEXT" > ${quote(record)}; echo "$ARC_HOOK_CONTEXT" >> ${quote(record)}` },
      { placement },
    );
    expect(report.status).toBe('ok');
    const [mode, path] = readFileSync(record, 'utf8').trim().split('\n');
    expect(mode).toBe('600');
    expect(path).toMatch(/context-[0-9a-f-]+\.json$/);
    expect(existsSync(path!)).toBe(false);
  });

  // Linux: /dev/shm is the memory-backed fallback there. The disk folder is one next to this file,
  // in the checkout (a temporary folder may itself be memory-backed).
  test.runIf(process.platform === 'linux')(
    'context files go to a memory-backed runtime directory, and to /dev/shm when the runtime directory is on a disk',
    async () => {
      const onDisk = mkdtempSync(join(import.meta.dirname, '.runtime-on-disk-'));
      const inMemory = mkdtempSync('/dev/shm/runner-command-runtime-');
      const saved = process.env['XDG_RUNTIME_DIR'];
      try {
        expect(statfsSync(onDisk).type, `${onDisk} is memory-backed here; the test needs it on a disk`).not.toBe(
          0x01021994,
        );
        const contextPath = async (runtime: string) => {
          process.env['XDG_RUNTIME_DIR'] = runtime;
          const record = join(scratch(), 'path');
          const report = await runOne({ command: `echo "$ARC_HOOK_CONTEXT" > ${quote(record)}` }, { placement });
          expect(report.status).toBe('ok');
          return readFileSync(record, 'utf8').trim();
        };
        expect(await contextPath(inMemory)).toMatch(new RegExp(`^${inMemory}/hookline-[^/]+/context-`));
        expect(await contextPath(onDisk)).toMatch(/^\/dev\/shm\/hookline-[^/]+\/context-/);
      } finally {
        if (saved === undefined) delete process.env['XDG_RUNTIME_DIR'];
        else process.env['XDG_RUNTIME_DIR'] = saved;
        rmSync(onDisk, { recursive: true, force: true });
        rmSync(inMemory, { recursive: true, force: true });
      }
    },
  );

  test('the preset names the variables: ARC_* for arc, ARC_NODE_ID only with a node_id', async () => {
    const record = join(scratch(), 'env');
    const command = `env | grep '^ARC_' | sort > ${quote(record)}`;
    await runOne({ command }, { placement });
    const withNode = readFileSync(record, 'utf8');
    expect(withNode).toContain('ARC_EVENT=stage_start\n');
    expect(withNode).toContain('ARC_RUN_ID=test-run\n');
    expect(withNode).toContain('ARC_WORKFLOW=tests\n');
    expect(withNode).toContain('ARC_NODE_ID=build\n');
    expect(withNode).toMatch(/ARC_HOOK_CONTEXT=\/.+\.json\n/);
    await runOne({ command }, { placement, context: { node_id: null } });
    expect(readFileSync(record, 'utf8')).not.toContain('ARC_NODE_ID');
  });

  test('a 1 MiB context that the hook never reads breaks nothing', async () => {
    const big = 'x'.repeat(1_048_576);
    const zero = await runOne({ command: 'exit 0' }, { placement, context: { big } });
    expect(zero.status).toBe('ok');
    expect(zero.decision).toEqual({ decision: 'proceed' });
    const two = await runOne({ command: `echo ${quote(skipJson())}; exit 2` }, { placement, context: { big } });
    expect(two.decision).toEqual({ decision: 'skip' });
    const partial = await runOne({ command: 'head -c 10 > /dev/null; exit 3' }, { placement, context: { big } });
    expect(partial.decision).toEqual({ decision: 'block', reason: 'hook exited with code 3' });
  });
});

describe.each(['host', 'local'] as const)('working directory (%s)', (placement) => {
  test("the hook runs in the context's cwd", async () => {
    const report = await runOne({ command: 'pwd > where' }, { placement, context: { cwd: scratch() } });
    expect(report.status).toBe('ok');
    expect(readFileSync(join(scratch(), 'where'), 'utf8').trim()).toBe(scratch());
  });

  test("without a cwd the hook runs in the host's working directory", async () => {
    const record = join(scratch(), 'where');
    await runOne({ command: `pwd > ${quote(record)}` }, { placement });
    expect(readFileSync(record, 'utf8').trim()).toBe(process.cwd());
  });

  test('a cwd that does not exist fails the hook with an error naming it', async () => {
    const missing = join(scratch(), 'no', 'such', 'dir');
    const report = await runOne({ command: 'exit 0' }, { placement, context: { cwd: missing } });
    expect(report.status).toBe('failed');
    expect(report.error).toBe(`the working directory ${JSON.stringify(missing)} does not exist`);
    // on_error defaults to block for command hooks: a failure never looks like an approval.
    expect(report.decision).toEqual({ decision: 'block', reason: report.error });
  });

  test('a cwd that is a file fails the hook', async () => {
    const file = join(scratch(), 'plain-file');
    await runOne({ command: `touch ${quote(file)}` }, { placement });
    const report = await runOne({ command: 'exit 0' }, { placement, context: { cwd: file } });
    expect(report.status).toBe('failed');
    expect(report.error).toContain('is not a directory');
  });
});

describe('a shell that cannot be started', () => {
  // The realistic case: the host (or the sandbox's environment) has a PATH without `sh`.
  test('host: PATH without sh fails the hook, and on_error decides', async () => {
    const runner = commandRunner({ environment: { PATH: '/nonexistent/bin', HOME: '/root' } });
    const report = await runOne({ command: 'exit 0', on_error: 'proceed' }, { runner });
    expect(report.status).toBe('failed');
    expect(report.error).toBe('cannot start "sh": not found on PATH (PATH=/nonexistent/bin)');
    expect(report.decision).toEqual({ decision: 'proceed', reason: report.error });
  });

  test('local sandbox: PATH without sh fails the hook', async () => {
    const report = await runOne(
      { command: 'exit 0' },
      { placement: 'local', sandbox: localSandbox({ environment: { PATH: '/nonexistent/bin' } }) },
    );
    expect(report.status).toBe('failed');
    expect(report.error).toContain('cannot start "sh": not found on PATH');
    expect(report.decision?.decision).toBe('block');
  });

  test('a preset whose shell does not exist fails the hook', async () => {
    const preset: Preset = { ...arcPreset, command: { ...arcPreset.command, shell: '/nonexistent/zsh' } };
    const runner = commandRunner();
    const config = loadConfig(
      [{ text: configText([{ event: 'stage_start', command: 'exit 0', sandbox: false }]), source: 'test.toml' }],
      { runners: [runner] },
    );
    const context = { event: 'stage_start', ...baseContext };
    const result = await runner.types['command']!.doRun(config.hooks[0]!, {
      context,
      contextJson: JSON.stringify(context),
      signal: new AbortController().signal,
      timeoutMs: 5_000,
      preset,
    });
    await runner.doClose?.();
    expect(result).toMatchObject({ status: 'failed', error: 'cannot start "/nonexistent/zsh": no such file' });
  });

  test('a command with a NUL byte cannot become a process argument and fails', async () => {
    const report = await runOne({ command: 'exit 0\u0000' });
    expect(report.status).toBe('failed');
    expect(report.error).toContain('NUL byte');
  });
});

describe('the type declaration and its keys', () => {
  test('command = "…" is the shorthand; the effective name uses the first 20 characters', () => {
    const config = loadConfig(
      [
        {
          text: configText([{ event: 'stage_start', command: 'echo 0123456789abcdefghij-and-more' }]),
          source: 'test.toml',
        },
      ],
      { runners: [commandRunner()] },
    );
    const hook = config.hooks[0]!;
    expect(hook.type).toBe('command');
    expect(hook.name).toBe('stage_start:echo 0123456789abcde');
    expect(hook.timeoutMs).toBe(60_000);
    expect(hook.onError).toBe('block');
    expect(hook.sandbox).toBe(true);
  });

  test.each([
    [{ command: '' }, 'command'],
    [{ command: '   ' }, 'command'],
    [{ type: 'command' }, 'missing required key `command`'],
    [{ command: 'true', max_output_bytes: 0 }, 'max_output_bytes'],
    [{ command: 'true', max_output_bytes: 1.5 }, 'max_output_bytes'],
    [{ command: 'true', max_output_bytes: 100_000_000 }, 'max_output_bytes'],
  ])('%j is rejected at load', (keys, mentioned) => {
    let caught: unknown;
    try {
      loadConfig([{ text: configText([{ event: 'stage_start', ...keys }]), source: 'test.toml' }], {
        runners: [commandRunner()],
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).issues.map((issue) => issue.message).join('\n')).toContain(mentioned);
  });

  test('max_output_bytes caps a single hook', async () => {
    const report = await runOne({ command: "head -c 5000 /dev/zero | tr '\\0' x", max_output_bytes: 1000 });
    expect(report.status).toBe('ok');
    expect(report['stdout_truncated']).toBe(true);
    expect(report.warnings?.join('\n')).toContain('stdout exceeded 1000 bytes');
  });
});

function skipJson(): string {
  return JSON.stringify({ decision: 'skip' });
}
