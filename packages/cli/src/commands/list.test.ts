import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
  scratch.write(
    'base.toml',
    '[[hooks]]\nname = "a"\nevent = "run_start"\ncommand = "true"\n\n[[hooks]]\nname = "b"\nevent = "stage_start"\nmatcher = "^build$"\ncommand = "true"\n',
  );
  scratch.write(
    'over.toml',
    '# layer 2\n[[hooks]]\nname = "a"\nevent = "run_start"\ncommand = "exit 2"\n\n[[hooks]]\nname = "b"\nenabled = false\n\n[[hooks]]\nname = "c"\nevent = "run_failed"\ncommand = "true"\nsandbox = false\n',
  );
});
afterEach(() => scratch.cleanup());

test('list --json: the effective hooks after layering, each with its source file:line', async () => {
  const result = await runCli(['list', '--config', 'base.toml', '--config', 'over.toml', '--json'], {
    cwd: scratch.path,
  });
  expect(result.code).toBe(0);
  const hooks = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
  expect(hooks.map((hook) => [hook['name'], hook['enabled'], hook['source'], hook['disabled_by']])).toEqual([
    ['a', true, { file: 'over.toml', line: 2, index: 0 }, undefined],
    // Disabled by a later layer: the definition in force is still base.toml's, switched off in over.toml.
    ['b', false, { file: 'base.toml', line: 6, index: 1 }, { file: 'over.toml', line: 7 }],
    ['c', true, { file: 'over.toml', line: 11, index: 2 }, undefined],
  ]);
  expect(hooks[0]).toMatchObject({
    event: 'run_start',
    type: 'command',
    blocking: true,
    durable: false,
    timeout_ms: 60_000,
    sandbox: true,
    on_error: 'block',
    options: { command: 'exit 2' },
  });
});

test('list prints a table with the source of each hook', async () => {
  const result = await runCli(['list', '--config', 'base.toml', '--config', 'over.toml'], { cwd: scratch.path });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('3 hooks from base.toml, over.toml');
  expect(result.stdout).toMatch(/hook\s+event\s+type\s+phase\s+durable\s+matcher\s+timeout\s+sandbox\s+source/);
  // over.toml ranks below base.toml: its changes are marked, and named on stderr.
  expect(result.stderr).toMatch(/over\.toml:2 replaced hook "a" of base\.toml:\d+ \(changed: /);
  expect(result.stderr).toContain('over.toml:7 disabled hook "b" of base.toml:6');
  expect(result.stdout).toMatch(
    /b \(disabled at over\.toml:7\) \(changed by a later layer\)\s+stage_start\s+command\s+blocking\s+—\s+\/\^build\$\/\s+60000 ms\s+local\s+base\.toml:6/,
  );
  expect(result.stdout).toMatch(/c\s+run_failed\s+command\s+non-blocking\s+—\s+—\s+60000 ms\s+host\s+over\.toml:11/);
});
