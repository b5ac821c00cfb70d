// A less trusted layer (a later file) that changes a hook of a more trusted one is reported in every
// outcome; a `locked` hook is not changed at all. Every form of override, both ways.
import { describe, expect, test } from 'vitest';
import { createHookEngine } from '../engine/create-hook-engine.ts';
import { scriptedRunner } from '../testing/scripted-runner.ts';
import { loadConfig } from './load-config.ts';
import { standInCommandRunner } from '../../test-support/stand-in-runners.ts';

const runner = scriptedRunner();
const runners = [runner];

function load(...texts: string[]) {
  return loadConfig(
    texts.map((text, index) => ({ text, source: index === 0 ? 'user.toml' : `project${index}.toml` })),
    { runners },
  );
}

const guard = (locked: boolean): string =>
  `[[hooks]]\nname = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "block"\nreason = "frozen"\nmatcher = "^deploy$"\n${locked ? 'locked = true\n' : ''}`;

// Each override a project file may try, and the key it changes.
const OVERRIDES: ReadonlyArray<readonly [string, string, string]> = [
  ['enabled = false (the disable form)', 'name = "guard"\nenabled = false\n', 'disable'],
  [
    'another decision (the command)',
    'name = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "proceed"\nmatcher = "^deploy$"\n',
    'decision',
  ],
  [
    'another matcher',
    'name = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "block"\nreason = "frozen"\nmatcher = "^nothing$"\n',
    'matcher',
  ],
  [
    'another event',
    'name = "guard"\nevent = "run_complete"\ntype = "scripted"\ndecision = "block"\nreason = "frozen"\nmatcher = "^deploy$"\n',
    'event',
  ],
  [
    'blocking = false',
    'name = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "block"\nreason = "frozen"\nmatcher = "^deploy$"\nblocking = false\n',
    'blocking',
  ],
  [
    'on_error = "proceed"',
    'name = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "block"\nreason = "frozen"\nmatcher = "^deploy$"\non_error = "proceed"\n',
    'on_error',
  ],
  [
    'a timeout change',
    'name = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "block"\nreason = "frozen"\nmatcher = "^deploy$"\ntimeout_ms = 1\n',
    'timeout_ms',
  ],
  [
    'sandbox = false',
    'name = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "block"\nreason = "frozen"\nmatcher = "^deploy$"\nsandbox = false\n',
    'sandbox',
  ],
  [
    'enabled = false restated',
    'name = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "block"\nreason = "frozen"\nmatcher = "^deploy$"\nenabled = false\n',
    'enabled',
  ],
];

async function emitDeploy(config: ReturnType<typeof load>) {
  const engine = createHookEngine({ config, runners });
  try {
    return await (
      await engine.emit('stage_start', { run_id: 'r', workflow_name: 'w', node_id: 'deploy' })
    ).settled;
  } finally {
    await engine.close();
  }
}

describe.each(OVERRIDES)('a project layer tries %s', (_name, table, key) => {
  test('on an unlocked user hook: it takes effect, and every outcome says so', async () => {
    const config = load(guard(false), `[[hooks]]\n${table}`);
    const notice = config.notices?.[0] ?? '';
    expect(notice).toMatch(
      key === 'disable'
        ? /^project1\.toml:1 disabled hook "guard" of user\.toml:1$/
        : new RegExp(`^project1\\.toml:1 (replaced|disabled) hook "guard" of user\\.toml:1 \\(changed: .*${key}`),
    );
    expect(config.hooks.find((hook) => hook.name === 'guard')?.layering).toEqual([notice]);
    const outcome = await emitDeploy(config);
    expect(outcome.warnings).toContain(notice);
    // Another event's outcome, with no hook at all, repeats it too.
    const engine = createHookEngine({ config, runners });
    const quiet = await engine.emit('checkpoint_saved', { run_id: 'r', workflow_name: 'w' });
    await engine.close();
    expect(quiet.warnings).toContain(notice);
  });

  test('on a locked user hook: ignored, the guard still blocks, and every outcome says so', async () => {
    const config = load(guard(true), `[[hooks]]\n${table}`);
    const [hook] = config.hooks;
    expect(hook).toMatchObject({
      name: 'guard',
      event: 'stage_start',
      enabled: true,
      blocking: true,
      locked: true,
      source: { file: 'user.toml' },
    });
    expect(config.notices).toEqual([
      expect.stringMatching(
        /^project1\.toml:1 tried to .*locked hook "guard" \(user\.toml:1\); ignored — the hook runs as defined there$/,
      ),
    ]);
    const outcome = await emitDeploy(config);
    expect([outcome.decision, outcome.reason]).toEqual(['block', 'frozen']);
    expect(outcome.warnings).toEqual(config.notices);
  });
});

describe('layer trust', () => {
  test('restating a hook unchanged is no change; a new hook in a later layer is not reported', () => {
    const config = load(
      guard(false),
      `${guard(false)}[[hooks]]\nname = "extra"\nevent = "run_start"\ntype = "scripted"\n`,
    );
    expect(config.notices).toBeUndefined();
  });

  test('with three layers (--config a --config b --config c) each later one ranks below the earlier ones', () => {
    const config = load(
      guard(true),
      '[[hooks]]\nname = "guard"\nenabled = false\n',
      '[[hooks]]\nname = "guard"\nevent = "stage_start"\ntype = "scripted"\ndecision = "proceed"\n',
    );
    expect(config.hooks[0]).toMatchObject({ enabled: true, options: { decision: 'block' } });
    expect(config.notices).toHaveLength(2);
  });

  test("a task point list that replaces the user layer's list is reported", () => {
    const config = loadConfig(
      [
        { text: 'preset = "task"\n[hooks]\nafter_merge = ["notify-me", "push-metrics"]\n', source: 'user.toml' },
        { text: 'preset = "task"\n[hooks]\nafter_merge = ["true"]\n', source: 'project.toml' },
      ],
      { runners: [standInCommandRunner().runner] },
    );
    expect(config.notices).toEqual([
      'project.toml replaced the "hooks.after_merge" list of user.toml:3: hook "after_merge-02" no longer runs',
      expect.stringMatching(/^project.toml:3 replaced hook "after_merge-01" of user.toml:3 \(changed: command\)$/),
    ]);
  });
});
