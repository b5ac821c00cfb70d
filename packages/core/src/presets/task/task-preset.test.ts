import { afterEach, describe, expect, test } from 'vitest';
import type { HookConfig, HookDefinition } from '../../config/hook-definition.ts';
import { loadConfig } from '../../config/load-config.ts';
import { createHookEngine, type HookEngine } from '../../engine/create-hook-engine.ts';
import { memoryJournal } from '../../testing/memory-journal.ts';
import { standInCommandRunner } from '../../../test-support/stand-in-runners.ts';
import { taskPreset } from './task-preset.ts';
import { configIssues } from '../../../test-support/config-issues.ts';

const runner = standInCommandRunner().runner;

function load(...texts: string[]): HookConfig {
  return loadConfig(
    texts.map((text, index) => ({ text, source: `layer${index}.toml` })),
    { runners: [runner] },
  );
}

function issuesOf(...texts: string[]): string[] {
  return configIssues(() => load(...texts));
}

// Everything but where the hook was written, which differs between the two forms by nature.
function behaviour(hook: HookDefinition): Omit<HookDefinition, 'source'> {
  const { source: _source, ...rest } = hook;
  return rest;
}

const dialect = `preset = "task"

[hooks]
after_merge = [
  "git push origin --delete \\"$ARC_BRANCH\\"",
  "git worktree remove --force \\"$ARC_WORKTREE\\"",
]
after_awaiting_human = ["curl -fsS -d \\"$ARC_TASK is waiting\\" ntfy.sh/radian"]
after_fail = []
`;

const canonical = `preset = "task"

[[hooks]]
name = "after_merge-01"
event = "after_merge"
command = "git push origin --delete \\"$ARC_BRANCH\\""

[[hooks]]
name = "after_merge-02"
event = "after_merge"
command = "git worktree remove --force \\"$ARC_WORKTREE\\""

[[hooks]]
name = "after_awaiting_human-01"
event = "after_awaiting_human"
command = "curl -fsS -d \\"$ARC_TASK is waiting\\" ntfy.sh/radian"
`;

describe('task dialect', () => {
  test('each command is a named, non-blocking, durable command hook on the host; the same as its canonical config', () => {
    const fromDialect = load(dialect);
    const fromCanonical = load(canonical);
    expect(fromDialect.preset).toBe('task');
    expect(fromDialect.hooks.map(behaviour)).toEqual(fromCanonical.hooks.map(behaviour));
    expect(
      fromDialect.hooks.map(({ name, event, type, blocking, durable, sandbox, timeoutMs, onError }) => ({
        name,
        event,
        type,
        blocking,
        durable,
        sandbox,
        timeoutMs,
        onError,
      })),
    ).toEqual([
      {
        name: 'after_merge-01',
        event: 'after_merge',
        type: 'command',
        blocking: false,
        durable: true,
        sandbox: false,
        timeoutMs: 60_000,
        onError: 'block',
      },
      {
        name: 'after_merge-02',
        event: 'after_merge',
        type: 'command',
        blocking: false,
        durable: true,
        sandbox: false,
        timeoutMs: 60_000,
        onError: 'block',
      },
      {
        name: 'after_awaiting_human-01',
        event: 'after_awaiting_human',
        type: 'command',
        blocking: false,
        durable: true,
        sandbox: false,
        timeoutMs: 60_000,
        onError: 'block',
      },
    ]);
    expect(fromDialect.hooks[0]?.options).toEqual({ command: 'git push origin --delete "$ARC_BRANCH"' });
    // Each command is located at its own line of the list.
    expect(fromDialect.hooks.map((hook) => hook.source.line)).toEqual([5, 6, 8]);
  });

  test('numbers are two digits, 01-based, and keep growing past 99', () => {
    const commands = Array.from({ length: 101 }, (_, index) => `"echo ${index}"`).join(', ');
    const config = load(`preset = "task"\n[hooks]\nafter_fail = [${commands}]\n`);
    expect(config.hooks.map((hook) => hook.name).filter((_, index) => [0, 8, 9, 98, 99, 100].includes(index))).toEqual([
      'after_fail-01',
      'after_fail-09',
      'after_fail-10',
      'after_fail-99',
      'after_fail-100',
      'after_fail-101',
    ]);
  });

  test('an unknown point names the nearest and lists the points', () => {
    expect(issuesOf('preset = "task"\n[hooks]\nafter_merged = ["true"]\n')).toEqual([
      'layer0.toml:3: unknown point `hooks.after_merged` for preset "task" — did you mean `after_merge`? points: after_merge, after_fail, after_rework, after_awaiting_human, after_proposed',
    ]);
  });

  test('a point that is not a list, and commands that are not non-empty strings, are named with their line', () => {
    const issues = issuesOf(
      'preset = "task"\n[hooks]\nafter_merge = "git push"\nafter_fail = [\n  "echo ok",\n  42,\n  "  ",\n]\n',
    );
    expect(issues).toEqual([
      'layer0.toml:3: `hooks.after_merge` must be a list of shell command lines — write after_merge = ["./notify.sh", …] (an empty list [] runs nothing)',
      'layer0.toml:6: hooks.after_fail[1] "after_fail-02": `command` must be a string holding a shell command — fix the value of `command`',
      'layer0.toml:7: hooks.after_fail[2] "after_fail-03": `command` must not be empty or only whitespace — fix the value of `command`',
    ]);
  });

  test('[[hooks]] tables are read canonically under preset "task": durable = false opts out, blocking hooks cannot be durable', () => {
    const config = load(
      'preset = "task"\n[[hooks]]\nname = "quiet"\nevent = "after_fail"\ncommand = "true"\ndurable = false\nmatcher = "^failed\\\\.timeout$"\n',
    );
    expect(config.hooks[0]).toMatchObject({
      name: 'quiet',
      durable: false,
      blocking: false,
      matcher: '^failed\\.timeout$',
    });
    expect(
      issuesOf(
        'preset = "task"\n[[hooks]]\nname = "x"\nevent = "after_fail"\ncommand = "true"\nblocking = true\ndurable = true\n',
      ),
    ).toEqual([
      'layer0.toml:7: hooks[0] "x": `durable = true` needs a non-blocking hook, and this one blocks — set blocking = false, or remove `durable`: a blocking hook\'s decision is needed before emit returns, so running it again after a crash could not change anything',
    ]);
    // Made blocking, a point's hook is not durable by default (and its decisions are not honoured).
    expect(
      load('preset = "task"\n[[hooks]]\nname = "x"\nevent = "after_fail"\ncommand = "true"\nblocking = true\n')
        .hooks[0],
    ).toMatchObject({ blocking: true, durable: false });
  });

  test("a later layer's list for a point replaces the earlier list as a whole; other points stay", () => {
    const config = load(
      'preset = "task"\n[hooks]\nafter_merge = ["a", "b", "c"]\nafter_fail = ["notify"]\n',
      '[hooks]\nafter_merge = ["x"]\n',
    );
    expect(config.hooks.map((hook) => [hook.name, hook.options['command'], hook.source.file])).toEqual([
      ['after_merge-01', 'x', 'layer1.toml'],
      ['after_fail-01', 'notify', 'layer0.toml'],
    ]);
  });

  test('the environment: ARC_TASK … ARC_STATE from the context, ARC_HOOK the point, absent fields unset', () => {
    const context = {
      event: 'after_merge',
      task: 't-7',
      plan: 'p-1',
      attempt: 't-7-2',
      branch: 'work/t-7',
      worktree: '/repo/.radian/arc/worktrees/t-7',
      target_branch: 'main',
      merged_sha: 'abc123',
      state: 'done.merged',
      other: 'not passed',
    };
    expect(taskPreset.command.environment.variables(context, JSON.stringify(context))).toEqual({
      ARC_TASK: 't-7',
      ARC_PLAN: 'p-1',
      ARC_ATTEMPT: 't-7-2',
      ARC_BRANCH: 'work/t-7',
      ARC_WORKTREE: '/repo/.radian/arc/worktrees/t-7',
      ARC_TARGET_BRANCH: 'main',
      ARC_MERGED_SHA: 'abc123',
      ARC_STATE: 'done.merged',
      ARC_HOOK: 'after_merge',
    });
    expect(taskPreset.command.environment.variables({ event: 'after_fail', task: 't-8', attempt: 3 }, '{}')).toEqual({
      ARC_TASK: 't-8',
      ARC_ATTEMPT: '3',
      ARC_HOOK: 'after_fail',
    });
  });
});

describe('task points in the engine', () => {
  const engines: HookEngine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });

  test("a point's commands run in order, one at a time; a failing one warns and the next still runs", async () => {
    const { runner: recording, calls } = standInCommandRunner();
    const config = loadConfig(
      [
        {
          text: 'preset = "task"\n[hooks]\nafter_merge = ["sleep 30", "exit 1", "fail", "sleep 10", "ok"]\n',
          source: 'task.toml',
        },
      ],
      { runners: [recording] },
    );
    const engine = createHookEngine({ config, runners: [recording], journal: memoryJournal(), journalKey: false });
    engines.push(engine);
    const outcome = await engine.emit('after_merge', { task: 't-1', state: 'done.merged' });
    expect(outcome.decision).toBe('proceed');
    const settled = await outcome.settled;
    expect(calls.map((call) => call.hook)).toEqual([
      'after_merge-01',
      'after_merge-02',
      'after_merge-03',
      'after_merge-04',
      'after_merge-05',
    ]);
    for (let index = 1; index < calls.length; index++)
      expect(calls[index]!.started).toBeGreaterThan(calls[index - 1]!.ended!);
    expect(settled.hooks.map((report) => report.status)).toEqual(['ok', 'ok', 'failed', 'ok', 'ok']);
    expect(settled.warnings).toEqual([
      'hook "after_merge-02" decided "block": hook exited with code 1 — it is non-blocking, so the event was not held back',
      'hook "after_merge-03" failed: could not start — on_error made it "block"',
    ]);
  });

  test('the context must name the task', async () => {
    const config = load(dialect);
    const engine = createHookEngine({ config, runners: [runner], journal: memoryJournal(), journalKey: false });
    engines.push(engine);
    await expect(engine.emit('after_merge', { plan: 'p' })).rejects.toThrow('lacks "task": preset "task" requires it');
  });
});
