// Process flags that make isolates unsafe: without --no-node-snapshot (isolated-vm's requirement)
// or with --allow-natives-syntax, script hooks fail with a way out instead of running. The process
// checks run in real child processes.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { NATIVES_SYNTAX_ERROR, nativesSyntaxEnabled } from './natives-syntax.ts';
import { NODE_SNAPSHOT_ERROR, nodeSnapshotDisabled } from './node-snapshot.ts';

const INDEX = fileURLToPath(new URL('./index.ts', import.meta.url));

/** Runs one script hook in a fresh `node` with `flags` and returns the hook's report. */
function reportInChild(flags: string[], settings: string): Promise<Record<string, unknown>> {
  const program = `
    import { createHookEngine, loadConfig } from '@hookline/core';
    import { scriptRunner } from ${JSON.stringify(INDEX)};
    const runners = [scriptRunner(${settings})];
    const config = loadConfig([{ source: 'child.toml', text: '[[hooks]]\\nevent = "stage_start"\\ntype = "script"\\nscript = "return false"\\n' }], { runners });
    const engine = createHookEngine({ config, runners });
    const outcome = await (await engine.emit('stage_start', { run_id: 'r', workflow_name: 'w' })).settled;
    await engine.close();
    process.stdout.write(JSON.stringify(outcome.hooks[0]));
  `;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...flags, '--input-type=module', '-e', program],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, unknown>);
      },
    );
  });
}

describe('--no-node-snapshot', () => {
  test('is found on the command line or in NODE_OPTIONS', () => {
    expect(nodeSnapshotDisabled(['--no-node-snapshot'], '')).toBe(true);
    expect(nodeSnapshotDisabled([], '--max-old-space-size=512 --no-node-snapshot')).toBe(true);
    expect(nodeSnapshotDisabled(['--expose-gc'], '--no-node-snapshotx')).toBe(false);
    // This test process was started with it (vitest.config.ts).
    expect(nodeSnapshotDisabled()).toBe(true);
  });

  test('without it, script hooks fail and say how to start Node', async () => {
    const report = await reportInChild([], '');
    expect(report).toMatchObject({ status: 'failed', error: NODE_SNAPSHOT_ERROR, decision: { decision: 'block' } });
  }, 30_000);

  test('with it, or with allowNodeSnapshot, they run', async () => {
    expect(await reportInChild(['--no-node-snapshot'], '')).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'the script returned false' },
    });
    expect(await reportInChild([], '{ allowNodeSnapshot: true }')).toMatchObject({ status: 'ok' });
  }, 30_000);
});

describe('--allow-natives-syntax', () => {
  test('is off in this process', () => {
    expect(nativesSyntaxEnabled()).toBe(false);
  });

  test('when on, script hooks refuse to run', async () => {
    const report = await reportInChild(['--no-node-snapshot', '--allow-natives-syntax'], '');
    expect(report).toMatchObject({ status: 'failed', error: NATIVES_SYNTAX_ERROR });
  }, 30_000);
});
