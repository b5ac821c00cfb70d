// The `task` preset end to end with real `sh` processes: the [hooks] dialect against its canonical
// config, the ARC_* variables, the per-command logs, and a point's commands in order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHookEngine, loadConfig, type EmitOutcome, type HookConfig, type HookReport } from '@hookline/core';
import { memoryJournal } from '@hookline/core/testing';
import { describe, expect, test } from 'vitest';
import { commandRunner, type CommandRunnerSettings } from './command-runner.ts';
import { quote } from '../test-support/hook-harness.ts';
import { waitFor } from '../test-support/processes.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();

const fullContext = {
  task: 't-42',
  plan: 'p-7',
  attempt: 't-42-2',
  branch: 'work/t-42',
  worktree: '/repo/.radian/arc/worktrees/t-42',
  target_branch: 'main',
  merged_sha: '9f1c2e7',
  state: 'done.merged',
};

/** Loads `toml` and emits `event` once, waiting for every command; returns the settled outcome. */
async function emitTask(
  toml: string,
  event: string,
  context: Record<string, unknown>,
  settings: CommandRunnerSettings = {},
): Promise<{ config: HookConfig; outcome: EmitOutcome }> {
  const runner = commandRunner({ logRoot: join(scratch(), 'runs'), ...settings });
  const config = loadConfig([{ text: toml, source: 'config.toml' }], { runners: [runner] });
  const journal = memoryJournal();
  // An in-memory journal nothing else can write: nothing to seal.
  const engine = createHookEngine({ config, runners: [runner], journal, journalKey: false });
  try {
    const outcome = await (await engine.emit(event, context)).settled;
    expect(journal.entries).toEqual([]);
    return { config, outcome };
  } finally {
    await engine.close();
  }
}

// A report without what differs from run to run.
function stable(report: HookReport): Record<string, unknown> {
  const { duration_ms: _duration, ...rest } = report;
  return rest;
}

describe('task preset with real commands', () => {
  test('the [hooks] dialect behaves exactly like its canonical config', async () => {
    const record = (name: string) => quote(join(scratch(), name));
    const commands = [
      `printf '%s %s\\n' "$ARC_HOOK" "$ARC_TASK" >> ${record('dialect')}`,
      'echo "cleanup failed" >&2; exit 3',
      'echo done',
    ];
    const dialect = `preset = "task"\n[hooks]\nafter_merge = [${commands.map((command) => JSON.stringify(command)).join(', ')}]\n`;
    const canonical = `preset = "task"\n${commands
      .map(
        (command, index) =>
          `[[hooks]]\nname = "after_merge-0${index + 1}"\nevent = "after_merge"\ncommand = ${JSON.stringify(command)}\n`,
      )
      .join('\n')}`;
    const fromDialect = await emitTask(dialect, 'after_merge', fullContext);
    const fromCanonical = await emitTask(canonical, 'after_merge', fullContext);
    const strip = (config: HookConfig) => config.hooks.map(({ source: _source, ...rest }) => rest);
    expect(strip(fromDialect.config)).toEqual(strip(fromCanonical.config));
    expect(fromDialect.outcome.hooks.map(stable)).toEqual(fromCanonical.outcome.hooks.map(stable));
    expect(fromDialect.outcome.warnings).toEqual(fromCanonical.outcome.warnings);
    expect(fromDialect.outcome.hooks.map((report) => [report.name, report.status, report['exit_code']])).toEqual([
      ['after_merge-01', 'ok', 0],
      ['after_merge-02', 'ok', 3],
      ['after_merge-03', 'ok', 0],
    ]);
    expect(readFileSync(join(scratch(), 'dialect'), 'utf8')).toBe('after_merge t-42\nafter_merge t-42\n');
  });

  test('commands get exactly ARC_TASK … ARC_STATE and ARC_HOOK; fields the context lacks are not set', async () => {
    const record = join(scratch(), 'env');
    const toml = `preset = "task"\n[hooks]\nafter_merge = [${JSON.stringify(`env | grep '^ARC_' | sort > ${quote(record)}`)}]\nafter_fail = [${JSON.stringify(`env | grep '^ARC_' | sort > ${quote(record)}`)}]\n`;
    // A clean environment, so that no ARC_ variable of the test process can leak into the check.
    const settings = { environment: { PATH: process.env['PATH'] } };
    await emitTask(toml, 'after_merge', fullContext, settings);
    expect(readFileSync(record, 'utf8')).toBe(
      [
        'ARC_ATTEMPT=t-42-2',
        'ARC_BRANCH=work/t-42',
        'ARC_HOOK=after_merge',
        'ARC_MERGED_SHA=9f1c2e7',
        'ARC_PLAN=p-7',
        'ARC_STATE=done.merged',
        'ARC_TARGET_BRANCH=main',
        'ARC_TASK=t-42',
        'ARC_WORKTREE=/repo/.radian/arc/worktrees/t-42',
        '',
      ].join('\n'),
    );
    await emitTask(toml, 'after_fail', { task: 't-43', state: 'failed.timeout', attempt: 3 }, settings);
    expect(readFileSync(record, 'utf8')).toBe(
      'ARC_ATTEMPT=3\nARC_HOOK=after_fail\nARC_STATE=failed.timeout\nARC_TASK=t-43\n',
    );
  });

  test('a failing command warns and the next still runs, in order, one at a time', async () => {
    const record = quote(join(scratch(), 'order'));
    const commands = [
      `echo 1 >> ${record}; sleep 0.2; echo 1-end >> ${record}; exit 1`,
      `echo 2 >> ${record}; exit 0`,
      `sleep 0.1; echo 3 >> ${record}`,
    ];
    const { outcome } = await emitTask(
      `preset = "task"\n[hooks]\nafter_fail = [${commands.map((command) => JSON.stringify(command)).join(', ')}]\n`,
      'after_fail',
      { task: 't-1' },
    );
    expect(readFileSync(join(scratch(), 'order'), 'utf8')).toBe('1\n1-end\n2\n3\n');
    expect(outcome.decision).toBe('proceed');
    expect(outcome.warnings).toEqual([
      'hook "after_fail-01" decided "block": hook exited with code 1 — it is non-blocking, so the event was not held back',
    ]);
  });

  test("each command's output goes to runs/<task>/hooks/<point>-NN.log, appended run after run", async () => {
    const toml = `preset = "task"\n[hooks]\nafter_merge = ["echo merged; echo 'to stderr' >&2", "printf 'no newline'; exit 4"]\n`;
    await emitTask(toml, 'after_merge', fullContext);
    const folder = join(scratch(), 'runs', 't-42', 'hooks');
    expect(readdirSync(folder).sort()).toEqual(['after_merge-01.log', 'after_merge-02.log']);
    const first = readFileSync(join(folder, 'after_merge-01.log'), 'utf8');
    expect(first).toMatch(
      /^=== after_merge-01 \(after_merge\) \d{4}-\d\d-\d\dT[\d:.]+Z\ncommand: echo merged; echo 'to stderr' >&2\nresult: exit 0\nduration_ms: [\d.]+\n--- stdout ---\nmerged\n--- stderr ---\nto stderr\n\n$/,
    );
    expect(readFileSync(join(folder, 'after_merge-02.log'), 'utf8')).toContain(
      "command: printf 'no newline'; exit 4\nresult: exit 4\n",
    );
    expect(readFileSync(join(folder, 'after_merge-02.log'), 'utf8')).toContain(
      '--- stdout ---\nno newline\n--- stderr ---\n\n',
    );
    await emitTask(toml, 'after_merge', fullContext);
    expect(readFileSync(join(folder, 'after_merge-01.log'), 'utf8').match(/^=== after_merge-01/gm)).toHaveLength(2);
  });

  test('a timed-out command is logged once its processes are gone; a task id cannot leave the log root', async () => {
    const toml =
      'preset = "task"\n[[hooks]]\nname = "after_fail-01"\nevent = "after_fail"\ntimeout_ms = 300\ncommand = "echo started; sleep 10"\n';
    const { outcome } = await emitTask(toml, 'after_fail', { task: '../../escape' }, { killGraceMs: 200 });
    expect(outcome.hooks[0]).toMatchObject({ status: 'timed_out', error: 'hook timed out after 300 ms' });
    expect(outcome.warnings).toEqual([
      'hook "after_fail-01" timed out: hook timed out after 300 ms — on_error made it "block"',
    ]);
    const log = join(scratch(), 'runs', '.._.._escape', 'hooks', 'after_fail-01.log');
    expect(await waitFor(() => existsSync(log), 5_000)).toBe(true);
    expect(readFileSync(log, 'utf8')).toContain(
      'result: killed by SIGTERM (the hook was stopped: hook timed out after 300 ms)\n',
    );
    expect(readFileSync(log, 'utf8')).toContain('--- stdout ---\nstarted\n');
    expect(readdirSync(scratch()).sort()).toEqual(['runs']);
  });

  test('arc hooks keep no logs', async () => {
    const runner = commandRunner({ logRoot: join(scratch(), 'runs') });
    const config = loadConfig(
      [{ text: '[[hooks]]\nevent = "stage_complete"\nsandbox = false\ncommand = "echo hi"\n', source: 'arc.toml' }],
      { runners: [runner] },
    );
    const engine = createHookEngine({ config, runners: [runner] });
    await (
      await engine.emit('stage_complete', { run_id: 'r', workflow_name: 'w' })
    ).settled;
    await engine.close();
    expect(existsSync(join(scratch(), 'runs'))).toBe(false);
  });
});
