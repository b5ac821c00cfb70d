// A corpus of Claude Code hooks in the shapes people publish — bash with jq, Python reading stdin,
// Node — wired in one project's .claude/settings.json, covering every event and every way a hook
// answers (exit 0 with JSON of each form or plain stdout, exit 2, other exit codes, on_error).
// Each case runs twice: through `hookline emit <Event> --config .claude/settings.json --context
// input.json`, and through the library (loadConfig + createHookEngine + commandRunner). Both must
// give the same outcome, and that outcome is checked.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHookEngine, loadConfig, type EmitOutcome } from '@hookline/core';
import { commandRunner } from '@hookline/runner-command';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

const CORPUS = fileURLToPath(new URL('../../test-fixtures/claude-corpus/', import.meta.url));
const SETTINGS = '.claude/settings.json';

function hasJq(): boolean {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const JQ = hasJq();
// CI installs jq (.ci/run): there a missing jq is a failure, never a silent skip.
if (!JQ && process.env['CI'] === 'true')
  throw new Error('claude corpus: jq is not installed, and CI must run every case (apt-get install -y jq)');
if (!JQ)
  console.warn('claude corpus: jq is not installed; the cases whose hooks use jq are skipped (apt-get install -y jq)');

interface Case {
  readonly input: string;
  readonly event: string;
  /** The hooks use jq. */
  readonly jq?: boolean;
  readonly check: (outcome: Record<string, unknown> & EmitOutcome, project: string) => void;
}

const hooks = (outcome: EmitOutcome) =>
  outcome.hooks.map((hook) => [hook.name.replace(/^.*\/\.claude\/hooks\//, ''), hook.status, hook.decision?.decision]);

const CASES: readonly Case[] = [
  {
    input: 'pre-bash-rm',
    event: 'PreToolUse',
    jq: true,
    check: (outcome) => {
      expect([outcome.decision, outcome.reason]).toEqual([
        'block',
        "Blocked: 'rm -rf' is not allowed in this project (rm -rf build/)",
      ]);
      expect(outcome.decided_by).toBe('PreToolUse:Bash:"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm-rf.sh');
      // Parallel: the validator ran too, although the guard blocked.
      expect(hooks(outcome)).toEqual([
        ['block-rm-rf.sh', 'ok', 'block'],
        ['validate-bash.py', 'ok', 'proceed'],
      ]);
    },
  },
  {
    input: 'pre-bash-grep',
    event: 'PreToolUse',
    jq: true,
    check: (outcome) => {
      expect([outcome.decision, outcome.reason]).toEqual([
        'block',
        "• Use 'rg' (ripgrep) instead of 'grep' for better performance and features",
      ]);
      expect(outcome.hooks[1]).toMatchObject({ exit_code: 2, status: 'ok' });
    },
  },
  {
    input: 'pre-bash-ok',
    event: 'PreToolUse',
    jq: true,
    check: (outcome) => {
      expect(outcome).toMatchObject({ decision: 'proceed', warnings: [] });
      expect(hooks(outcome)).toEqual([
        ['block-rm-rf.sh', 'ok', 'proceed'],
        ['validate-bash.py', 'ok', 'proceed'],
      ]);
    },
  },
  {
    input: 'pre-write-env',
    event: 'PreToolUse',
    check: (outcome) =>
      expect([outcome.decision, outcome.reason]).toEqual(['block', '.env holds secrets and must not be written']),
  },
  {
    input: 'pre-edit-outside',
    event: 'PreToolUse',
    check: (outcome) =>
      expect([outcome.decision, outcome.reason]).toEqual(['ask', '/etc/hosts is outside the project']),
  },
  {
    input: 'pre-mcp',
    event: 'PreToolUse',
    check: (outcome) =>
      expect(outcome).toMatchObject({
        decision: 'allow',
        reason: 'memory reads are safe',
        updated_input: { depth: 2, readonly: true },
      }),
  },
  {
    input: 'pre-webfetch',
    event: 'PreToolUse',
    check: (outcome) => {
      // A crashing hook does not stop the tool, as in Claude Code — but it is reported, never silent.
      expect(outcome.decision).toBe('proceed');
      expect(outcome.hooks[0]).toMatchObject({ status: 'failed', exit_code: 1, decision: { decision: 'proceed' } });
      expect(outcome.hooks[0]?.error).toMatch(
        /^hook exited with code 1: Traceback \(most recent call last\):[\s\S]*KeyError: 'headers'$/,
      );
      expect(outcome.warnings).toEqual([
        expect.stringMatching(
          /fetch-audit\.py" failed: hook exited with code 1: Traceback[\s\S]*on_error made it "proceed"$/,
        ),
      ]);
    },
  },
  {
    input: 'pre-read',
    event: 'PreToolUse',
    check: (outcome) => {
      // "on_error": "block" makes the crashing guard fail closed.
      expect(outcome.decision).toBe('block');
      expect(outcome.reason).toMatch(/^hook exited with code 1: .*missing-helper\.sh: No such file or directory$/);
      expect(outcome.hooks[0]).toMatchObject({ status: 'failed', decision: { decision: 'block' } });
    },
  },
  {
    input: 'pre-task',
    event: 'PreToolUse',
    check: (outcome) =>
      expect(outcome).toMatchObject({
        decision: 'proceed',
        continue: false,
        stop_reason: 'subagent "Explore" needs a budget approval',
        system_messages: ['Session stopped by the budget hook'],
      }),
  },
  {
    input: 'permission-npm',
    event: 'PermissionRequest',
    check: (outcome) =>
      expect(outcome).toMatchObject({ decision: 'allow', updated_input: { command: 'npm test --silent' } }),
  },
  {
    input: 'permission-sudo',
    event: 'PermissionRequest',
    check: (outcome) =>
      expect([outcome.decision, outcome.reason]).toEqual(['block', 'sudo is never approved automatically']),
  },
  {
    input: 'post-write-tabs',
    event: 'PostToolUse',
    check: (outcome, project) =>
      expect([outcome.decision, outcome.reason]).toEqual([
        'block',
        `${project}/src/app.js uses tabs; this project indents with spaces`,
      ]),
  },
  {
    input: 'post-edit-clean',
    event: 'PostToolUse',
    check: (outcome, project) => {
      expect(outcome).toMatchObject({
        decision: 'proceed',
        additional_context: [`formatted ${project}/src/app.js`],
        warnings: [],
      });
      expect(outcome.hooks[0]).toMatchObject({ suppress_output: true });
    },
  },
  {
    input: 'post-failure',
    event: 'PostToolUseFailure',
    check: (outcome) =>
      expect(outcome).toMatchObject({
        decision: 'proceed',
        additional_context: ['the test database is not running; start it with `make db`'],
      }),
  },
  {
    input: 'prompt-secret',
    event: 'UserPromptSubmit',
    check: (outcome) =>
      expect([outcome.decision, outcome.reason]).toEqual([
        'block',
        'Your prompt seems to contain a secret; remove it and try again.',
      ]),
  },
  {
    input: 'prompt-plain',
    event: 'UserPromptSubmit',
    check: (outcome) =>
      expect(outcome).toMatchObject({
        decision: 'proceed',
        additional_context: ['Current branch: main (from the prompt hook)'],
      }),
  },
  {
    input: 'notification-idle',
    event: 'Notification',
    jq: true,
    check: (outcome, project) => {
      // Exit 2 on an event that cannot block: stderr is shown to the user.
      expect(outcome).toMatchObject({
        decision: 'proceed',
        system_messages: ['Claude is waiting for your input'],
        warnings: [],
      });
      expect(readFileSync(join(project, '.claude/notifications.log'), 'utf8')).toBe('idle_prompt\n');
    },
  },
  {
    input: 'stop-first',
    event: 'Stop',
    check: (outcome) =>
      expect([outcome.decision, outcome.reason]).toEqual(['block', 'Run the test suite before finishing.']),
  },
  {
    input: 'stop-again',
    event: 'Stop',
    check: (outcome) => expect(hooks(outcome)).toEqual([['stop-guard.py', 'ok', 'proceed']]),
  },
  {
    input: 'subagent-start',
    event: 'SubagentStart',
    check: (outcome) => expect(outcome.additional_context).toEqual(['You are agent-42; stay read-only.']),
  },
  {
    input: 'subagent-stop',
    event: 'SubagentStop',
    check: (outcome) =>
      expect([outcome.decision, outcome.reason]).toEqual([
        'block',
        'Write .claude/summary.md with your findings before stopping',
      ]),
  },
  {
    input: 'precompact-auto',
    event: 'PreCompact',
    check: (outcome, project) => {
      expect(hooks(outcome)).toEqual([['backup-transcript.sh', 'ok', 'proceed']]);
      expect(existsSync(join(project, '.claude/backups/transcript.jsonl'))).toBe(true);
    },
  },
  {
    input: 'precompact-manual',
    event: 'PreCompact',
    check: (outcome) => expect(outcome.hooks).toEqual([]),
  },
  {
    input: 'session-start-startup',
    event: 'SessionStart',
    check: (outcome) => expect(outcome.additional_context).toEqual(['Project: project\nOpen TODOs: 3']),
  },
  {
    input: 'session-start-resume',
    event: 'SessionStart',
    check: (outcome) => expect(outcome.additional_context).toEqual(['Resumed session 8f2c1a4e-corpus']),
  },
  {
    input: 'session-end',
    event: 'SessionEnd',
    jq: true,
    check: (outcome, project) => {
      expect(outcome).toMatchObject({ decision: 'proceed', warnings: [] });
      expect(readFileSync(join(project, '.claude/sessions.log'), 'utf8')).toBe('8f2c1a4e-corpus logout\n');
    },
  },
];

let scratch: Scratch;
beforeAll(() => {
  scratch = makeScratch();
});
afterAll(() => scratch.cleanup());

/** A fresh copy of the corpus project for one run, and the case's input with its paths filled in. */
function prepare(name: string, mode: string): { project: string; inputFile: string; input: Record<string, unknown> } {
  const project = join(scratch.path, name, mode, 'project');
  cpSync(join(CORPUS, 'project'), project, { recursive: true });
  const text = readFileSync(join(CORPUS, 'inputs', `${name}.json`), 'utf8').replaceAll('__PROJECT__', project);
  const inputFile = join(scratch.path, name, mode, 'input.json');
  writeFileSync(inputFile, text);
  return { project, inputFile, input: JSON.parse(text) as Record<string, unknown> };
}

// Durations differ between runs; the project folders are the only other difference.
function comparable(outcome: EmitOutcome, project: string): unknown {
  const text = JSON.stringify({ ...outcome, hooks: outcome.hooks.map(({ duration_ms: _duration, ...hook }) => hook) });
  return JSON.parse(text.replaceAll(project, '<project>'));
}

describe('the Claude Code hook corpus', () => {
  test('every event of the preset has a case', () => {
    expect(new Set(CASES.map((entry) => entry.event))).toEqual(
      new Set([
        'PreToolUse',
        'PermissionRequest',
        'PostToolUse',
        'PostToolUseFailure',
        'UserPromptSubmit',
        'Notification',
        'Stop',
        'SubagentStart',
        'SubagentStop',
        'PreCompact',
        'SessionStart',
        'SessionEnd',
      ]),
    );
  });

  for (const entry of CASES) {
    test.skipIf(entry.jq === true && !JQ)(`${entry.event} ${entry.input}: the CLI and the library agree`, async () => {
      const cli = prepare(entry.input, 'cli');
      const result = await runCli(['emit', entry.event, '--config', SETTINGS, '--context', cli.inputFile, '--json'], {
        cwd: cli.project,
      });
      expect(result.stderr).toBe('');
      const fromCli = JSON.parse(result.stdout) as Record<string, unknown> & EmitOutcome;
      expect(result.code).toBe(fromCli.decision === 'block' ? 2 : 0);
      entry.check(fromCli, cli.project);

      const library = prepare(entry.input, 'library');
      const runners = [commandRunner()];
      const config = loadConfig([{ text: readFileSync(join(library.project, SETTINGS), 'utf8'), source: SETTINGS }], {
        runners,
      });
      expect(config.preset).toBe('claude');
      const engine = createHookEngine({ config, runners });
      try {
        const fromLibrary = JSON.parse(
          JSON.stringify(await (await engine.emit(entry.event, library.input)).settled),
        ) as Record<string, unknown> & EmitOutcome;
        entry.check(fromLibrary, library.project);
        expect(comparable(fromLibrary, library.project)).toEqual(comparable(fromCli, cli.project));
      } finally {
        await engine.close();
      }
    });
  }
});
