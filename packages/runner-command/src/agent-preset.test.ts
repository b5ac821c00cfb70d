// The `agent` preset end to end with real `bash` processes: the [hooks.action] dialect against its
// canonical config, the AGENT_CODE_HOOK_* variables and their 16 KiB limit, the context on stdin as
// one line, the exit-code veto and its reason, and tool_name's exact match.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHookEngine, loadConfig, type EmitOutcome, type HookConfig, type HookReport } from '@hookline/core';
import { describe, expect, test } from 'vitest';
import { commandRunner } from './command-runner.ts';
import { quote } from '../test-support/hook-harness.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();

/** Loads `toml` under preset "agent" and emits each `[event, context]`, returning the settled outcomes. */
async function emitAgent(
  toml: string,
  emits: ReadonlyArray<readonly [string, Record<string, unknown>]>,
): Promise<{ config: HookConfig; outcomes: EmitOutcome[] }> {
  // A clean environment: no AGENT_CODE_ variable of the test process can leak into the checks.
  const runner = commandRunner({ environment: { PATH: process.env['PATH'] }, killGraceMs: 200 });
  const config = loadConfig([{ text: `preset = "agent"\n${toml}`, source: 'settings.toml' }], { runners: [runner] });
  const engine = createHookEngine({ config, runners: [runner] });
  try {
    const outcomes: EmitOutcome[] = [];
    for (const [event, context] of emits)
      outcomes.push(await (await engine.emit(event, { session_id: 'session-1', ...context })).settled);
    return { config, outcomes };
  } finally {
    await engine.close();
  }
}

const action = (event: string, command: string, extra = ''): string =>
  `[[hooks]]\nevent = "${event}"\n${extra}[hooks.action]\ntype = "shell"\ncommand = ${JSON.stringify(command)}\n`;

function stable(report: HookReport): Record<string, unknown> {
  const { duration_ms: _duration, ...rest } = report;
  return rest;
}

describe('agent preset with real commands', () => {
  test('the [hooks.action] dialect behaves exactly like its canonical config', async () => {
    const check = 'if [[ "$AGENT_CODE_HOOK_TOOL" == Bash ]]; then echo "no shell today" >&2; exit 1; fi';
    const dialect = `${action('pre_tool_use', check, 'tool_name = "Bash"\n')}[[hooks]]\nevent = "post_tool_use"\naction = { type = "shell", command = "echo formatted" }\n`;
    const canonical = `[[hooks]]\nname = ${JSON.stringify(`pre_tool_use:Bash:${check.slice(0, 20)}`)}\nevent = "pre_tool_use"\nmatcher = "^Bash$"\ncommand = ${JSON.stringify(check)}\n[[hooks]]\nname = "post_tool_use:echo formatted"\nevent = "post_tool_use"\ntype = "command"\ncommand = "echo formatted"\n`;
    const emits = [
      ['pre_tool_use', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }],
      ['pre_tool_use', { tool_name: 'BashOutput' }],
      ['post_tool_use', { tool_name: 'FileEdit' }],
    ] as const;
    const fromDialect = await emitAgent(dialect, emits);
    const fromCanonical = await emitAgent(canonical, emits);
    const strip = (config: HookConfig) => config.hooks.map(({ source: _source, ...rest }) => rest);
    expect(strip(fromDialect.config)).toEqual(strip(fromCanonical.config));
    const outcomes = (run: { outcomes: EmitOutcome[] }) =>
      run.outcomes.map((outcome) => ({ ...outcome, hooks: outcome.hooks.map(stable) }));
    expect(outcomes(fromDialect)).toEqual(outcomes(fromCanonical));
    expect(fromDialect.outcomes.map((outcome) => [outcome.decision, outcome.reason])).toEqual([
      ['block', 'no shell today'],
      ['proceed', undefined],
      ['proceed', undefined],
    ]);
  });

  test('the environment: AGENT_CODE_HOOK_EVENT, _TOOL when there is a tool, _CONTEXT holding the context JSON', async () => {
    const record = join(scratch(), 'env');
    const dump = `env | grep '^AGENT_CODE_' | sort > ${quote(record)}; printenv AGENT_CODE_HOOK_CONTEXT > ${quote(`${record}.json`)}`;
    await emitAgent(action('post_tool_use', dump) + action('session_start', dump), [
      ['post_tool_use', { tool_name: 'FileWrite', tool_input: { path: 'a.rs' } }],
    ]);
    const json =
      '{"event":"post_tool_use","session_id":"session-1","tool_name":"FileWrite","tool_input":{"path":"a.rs"}}';
    expect(readFileSync(record, 'utf8')).toBe(
      `AGENT_CODE_HOOK_CONTEXT=${json}\nAGENT_CODE_HOOK_EVENT=post_tool_use\nAGENT_CODE_HOOK_TOOL=FileWrite\n`,
    );
    expect(readFileSync(`${record}.json`, 'utf8')).toBe(`${json}\n`);
    await emitAgent(action('session_start', dump), [['session_start', {}]]);
    expect(readFileSync(record, 'utf8')).toBe(
      'AGENT_CODE_HOOK_CONTEXT={"event":"session_start","session_id":"session-1"}\nAGENT_CODE_HOOK_EVENT=session_start\n',
    );
  });

  test('AGENT_CODE_HOOK_CONTEXT up to 16 384 UTF-8 bytes; at 16 385 only AGENT_CODE_HOOK_CONTEXT_TRUNCATED=1', async () => {
    const record = join(scratch(), 'env');
    const command = `env | grep -o '^AGENT_CODE_HOOK_CONTEXT[A-Z_]*=' | sort > ${quote(record)}; printenv AGENT_CODE_HOOK_CONTEXT > ${quote(`${record}.value`)}; cat > ${quote(`${record}.stdin`)}`;
    for (const bytes of [16_384, 16_385]) {
      const base = JSON.stringify({ event: 'pre_compact', session_id: 'session-1', pad: '' });
      const room = bytes - Buffer.byteLength(base);
      // Two-byte "é", four-byte "😀" and one-byte "x" together, so the count is in bytes, not characters.
      const pad = `${'😀'.repeat(100)}${'é'.repeat((room - 400) >> 1)}${'x'.repeat((room - 400) % 2)}`;
      const json = JSON.stringify({ event: 'pre_compact', session_id: 'session-1', pad });
      expect(Buffer.byteLength(json)).toBe(bytes);
      expect(json.length).toBeLessThan(bytes);
      await emitAgent(action('pre_compact', command), [['pre_compact', { pad }]]);
      expect(readFileSync(`${record}.stdin`, 'utf8')).toBe(`${json}\n`);
      if (bytes === 16_384) {
        expect(readFileSync(record, 'utf8')).toBe('AGENT_CODE_HOOK_CONTEXT=\n');
        expect(readFileSync(`${record}.value`, 'utf8')).toBe(`${json}\n`);
      } else {
        expect(readFileSync(record, 'utf8')).toBe('AGENT_CODE_HOOK_CONTEXT_TRUNCATED=\n');
        expect(readFileSync(`${record}.value`, 'utf8')).toBe('');
      }
    }
  });

  test('stdin carries the context as exactly one JSON line with a trailing newline', async () => {
    const record = join(scratch(), 'lines');
    await emitAgent(
      action('user_prompt_submit', `cat > ${quote(record)}; wc -l < ${quote(record)} > ${quote(`${record}.count`)}`),
      [['user_prompt_submit', { prompt: 'line one\nline two' }]],
    );
    expect(readFileSync(record, 'utf8')).toBe(
      '{"event":"user_prompt_submit","session_id":"session-1","prompt":"line one\\nline two"}\n',
    );
    expect(readFileSync(`${record}.count`, 'utf8').trim()).toBe('1');
  });

  test('pre_tool_use veto reason: trimmed stderr, else trimmed stdout, else "blocked by pre-tool-use hook"', async () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['echo "  not on main  " >&2; echo ignored; exit 1', 'not on main', 'stderr wins'],
      ['printf "\\n  use the other tool \\n"; exit 7', 'use the other tool', 'then stdout'],
      ['exit 2', 'blocked by pre-tool-use hook', 'then the default'],
      ['kill -KILL $$', 'blocked by pre-tool-use hook', 'a signal vetoes too'],
      ['echo "all good" >&2; echo \'{"decision":"proceed"}\'; exit 0', undefined, 'exit 0 proceeds'],
      ['echo "all good" >&2; echo \'just text\'; exit 0', undefined, 'exit 0 proceeds whatever plain text it prints'],
    ];
    const { outcomes } = await emitAgent(
      cases.map(([command], index) => action('pre_tool_use', command, `tool_name = "T${index}"\n`)).join(''),
      cases.map((_, index) => ['pre_tool_use', { tool_name: `T${index}` }] as const),
    );
    expect(outcomes.map((outcome) => [outcome.decision, outcome.reason])).toEqual(
      cases.map(([, reason]) => [reason === undefined ? 'proceed' : 'block', reason]),
    );
    expect(outcomes[4]?.hooks[0]?.status).toBe('ok');
    // A "block" JSON at exit 0 was meant as a veto this protocol cannot honour: the hook failed, and
    // pre_tool_use fails closed; garbled JSON too.
    const { outcomes: meant } = await emitAgent(
      [`echo '{"decision":"block"}'`, `echo '{"decision":"block",}'`, `echo '["block"]'`]
        .map((command, index) => action('pre_tool_use', command, `tool_name = "M${index}"\n`))
        .join(''),
      [0, 1, 2].map((index) => ['pre_tool_use', { tool_name: `M${index}` }] as const),
    );
    expect(meant.map((outcome) => [outcome.decision, outcome.hooks[0]?.status])).toEqual([
      ['block', 'failed'],
      ['block', 'failed'],
      ['block', 'failed'],
    ]);
    expect(meant[0]?.reason).toContain('answer by exit code only');
    expect(meant[1]?.reason).toContain('not valid JSON');
    expect(meant[2]?.reason).toContain('JSON array');
    // Other events name themselves in the default reason (recorded, not honoured: they do not block).
    const {
      outcomes: [stop],
    } = await emitAgent(action('stop', 'exit 1'), [['stop', {}]]);
    expect(stop?.hooks[0]?.decision).toEqual({ decision: 'block', reason: 'blocked by stop hook' });
    expect(stop?.decision).toBe('proceed');
  });

  test('pre_tool_use fails closed: a timeout or a hook that cannot start vetoes', async () => {
    const { outcomes } = await emitAgent(
      `${action('pre_tool_use', 'sleep 10', 'tool_name = "Slow"\ntimeout_ms = 300\n')}${action('pre_tool_use', 'true', 'tool_name = "Lost"\n')}`,
      [
        ['pre_tool_use', { tool_name: 'Slow' }],
        ['pre_tool_use', { tool_name: 'Lost', cwd: join(scratch(), 'missing') }],
      ],
    );
    expect(outcomes[0]).toMatchObject({ decision: 'block', reason: 'hook timed out after 300 ms' });
    expect(outcomes[0]?.hooks[0]?.status).toBe('timed_out');
    expect(outcomes[1]?.decision).toBe('block');
    expect(outcomes[1]?.hooks[0]?.status).toBe('failed');
    expect(outcomes[1]?.reason).toContain(join(scratch(), 'missing'));
  });

  test('bash does not source ~/.bashrc, even in an environment without SHLVL', async () => {
    const home = join(scratch(), 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.bashrc'), `echo sourced > ${quote(join(scratch(), 'bashrc-ran'))}\n`);
    const runner = commandRunner({ environment: { PATH: process.env['PATH'], HOME: home } });
    const config = loadConfig(
      [{ text: `preset = "agent"\n${action('stop', 'echo "$SHLVL" > shlvl')}`, source: 'settings.toml' }],
      { runners: [runner] },
    );
    const engine = createHookEngine({ config, runners: [runner] });
    await (
      await engine.emit('stop', { session_id: 's', cwd: scratch() })
    ).settled;
    await engine.close();
    expect(readFileSync(join(scratch(), 'shlvl'), 'utf8')).toBe('2\n');
    expect(existsSync(join(scratch(), 'bashrc-ran'))).toBe(false);
  });

  test('shell actions run with bash; a Bash hook does not fire for BashOutput', async () => {
    const marker = join(scratch(), 'fired');
    const { outcomes } = await emitAgent(
      action(
        'post_tool_use',
        `[[ "$AGENT_CODE_HOOK_TOOL" =~ ^Bash ]] && echo "$AGENT_CODE_HOOK_TOOL" >> ${quote(marker)}`,
        'tool_name = "Bash"\n',
      ),
      [
        ['post_tool_use', { tool_name: 'BashOutput' }],
        ['post_tool_use', { tool_name: 'Bash' }],
      ],
    );
    expect(outcomes.map((outcome) => outcome.hooks.length)).toEqual([0, 1]);
    expect(outcomes[1]?.hooks[0]).toMatchObject({ status: 'ok', exit_code: 0 });
    expect(existsSync(marker) && readFileSync(marker, 'utf8')).toBe('Bash\n');
  });
});
