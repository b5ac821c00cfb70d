// The core on Deno, unchanged: the same sources the npm build compiles, run by Deno's own TypeScript
// and module loader. Node-specific code would fail here first.
import { RE2JS } from 're2js';
import * as v from 'valibot';
import {
  agentPreset,
  ConfigError,
  createHookEngine,
  formatConfigIssue,
  HooklineError,
  loadConfig,
  mergeDecisions,
  type HookConfig,
  type EmitOutcome,
} from '../../src/index.ts';
import { defineRunner } from '../../src/plugin.ts';
import { compileMatcher } from '../../src/selection/compile-matcher.ts';
import { linearNativeRegExp } from '../../src/selection/linear-native-regexp.ts';
import { journalConformanceCases, memoryJournal, scriptedRunner } from '../../src/testing/index.ts';
import { assert, assertEquals, assertThrows } from './assert.ts';

const context = { run_id: 'deno-run', workflow_name: 'deno', node_id: 'build' };

function load(...texts: string[]): HookConfig {
  return loadConfig(
    texts.map((text, index) => ({ text, source: `layer-${index}.toml` })),
    { runners: [scriptedRunner()] },
  );
}

async function emitOnce(config: HookConfig, event: string, extra: Record<string, unknown> = {}): Promise<EmitOutcome> {
  const runner = scriptedRunner();
  // A short grace: a hanging hook ignores its abort, and close() must not wait the default 10 s for it.
  const engine = createHookEngine({ config, runners: [runner], closeGraceMs: 50 });
  try {
    const outcome = await engine.emit(event, { ...context, ...extra });
    return await outcome.settled;
  } finally {
    await engine.close();
  }
}

Deno.test('a blocking hook blocks the event with its reason and name; later hooks are skipped', async () => {
  const config = load(`
[[hooks]]
name = "first"
event = "stage_start"
type = "scripted"

[[hooks]]
name = "gate"
event = "stage_start"
type = "scripted"
decision = "block"
reason = "tests are red"

[[hooks]]
name = "after"
event = "stage_start"
type = "scripted"
`);
  const outcome = await emitOnce(config, 'stage_start');
  assertEquals(
    { decision: outcome.decision, reason: outcome.reason, decided_by: outcome.decided_by },
    { decision: 'block', reason: 'tests are red', decided_by: 'gate' },
  );
  assertEquals(
    outcome.hooks.map((report) => [report.name, report.status]),
    [
      ['first', 'ok'],
      ['gate', 'ok'],
      ['after', 'skipped'],
    ],
  );
  assert(!('settled' in JSON.parse(JSON.stringify(outcome))), 'settled is not serialised');
});

Deno.test('a skip decision skips the stage', async () => {
  const config = load(`
[[hooks]]
name = "not-today"
event = "stage_start"
type = "scripted"
decision = "skip"
reason = "cached"
`);
  const outcome = await emitOnce(config, 'stage_start');
  assertEquals(
    { decision: outcome.decision, reason: outcome.reason, decided_by: outcome.decided_by },
    { decision: 'skip', reason: 'cached', decided_by: 'not-today' },
  );
});

Deno.test('an override decision on edge_selected carries edge_to', async () => {
  const config = load(`
[[hooks]]
name = "reroute"
event = "edge_selected"
type = "scripted"
decision = "override"
edge_to = "review"
reason = "needs a human"
`);
  const outcome = await emitOnce(config, 'edge_selected', { edge_from: 'build', edge_to: 'deploy' });
  assertEquals(
    { decision: outcome.decision, edge_to: outcome.edge_to, decided_by: outcome.decided_by },
    { decision: 'override', edge_to: 'review', decided_by: 'reroute' },
  );
});

Deno.test('mergeDecisions: the first block beats everything, else the earliest skip or override, else proceed', () => {
  assertEquals(mergeDecisions([]), { decision: { decision: 'proceed' }, index: undefined });
  assertEquals(mergeDecisions([{ decision: 'proceed' }, { decision: 'proceed' }]), {
    decision: { decision: 'proceed' },
    index: undefined,
  });
  assertEquals(
    mergeDecisions([{ decision: 'proceed' }, { decision: 'override', edge_to: 'x' }, { decision: 'skip' }]),
    { decision: { decision: 'override', edge_to: 'x' }, index: 1 },
  );
  assertEquals(
    mergeDecisions([{ decision: 'skip' }, { decision: 'block', reason: 'one' }, { decision: 'block', reason: 'two' }]),
    { decision: { decision: 'block', reason: 'one' }, index: 1 },
  );
});

Deno.test(
  'layering: a same-named hook is replaced in place, name + enabled = false disables, new hooks append',
  async () => {
    const user = `
[[hooks]]
name = "lint"
event = "stage_start"
type = "scripted"

[[hooks]]
name = "notify"
event = "stage_start"
type = "scripted"
decision = "skip"

[[hooks]]
name = "audit"
event = "stage_start"
type = "scripted"
`;
    const project = `
[[hooks]]
name = "notify"
enabled = false

[[hooks]]
name = "lint"
event = "stage_start"
type = "scripted"
decision = "block"
reason = "project lint"

[[hooks]]
name = "extra"
event = "stage_start"
type = "scripted"
`;
    const config = load(user, project);
    assertEquals(
      config.hooks.map((hook) => [hook.name, hook.enabled, hook.source.file]),
      [
        ['lint', true, 'layer-1.toml'],
        ['notify', false, 'layer-0.toml'],
        ['audit', true, 'layer-0.toml'],
        ['extra', true, 'layer-1.toml'],
      ],
    );
    assertEquals(config.hooks[0]?.options, { decision: 'block', reason: 'project lint' });
    const outcome = await emitOnce(config, 'stage_start');
    assertEquals(
      outcome.hooks.map((report) => report.name),
      ['lint', 'audit', 'extra'],
      'a disabled hook is not selected',
    );
    assertEquals([outcome.decision, outcome.decided_by], ['block', 'lint']);
  },
);

Deno.test('a hook that never settles is reported timed_out at its deadline', async () => {
  const config = load(`
[[hooks]]
name = "stuck"
event = "stage_start"
type = "scripted"
hang = true
timeout_ms = 100
on_error = "proceed"
`);
  const started = performance.now();
  const outcome = await emitOnce(config, 'stage_start');
  const elapsed = performance.now() - started;
  const report = outcome.hooks[0];
  assertEquals([report?.status, report?.error], ['timed_out', 'hook timed out after 100 ms']);
  assertEquals(outcome.decision, 'proceed', 'on_error = "proceed" lets the event proceed');
  assert(
    outcome.warnings.some((warning) => warning.includes('stuck')),
    `the timeout is in the warnings: ${JSON.stringify(outcome.warnings)}`,
  );
  assert(elapsed < 2_000, `emit and close took ${Math.round(elapsed)} ms`);
});

Deno.test('bad configuration throws one ConfigError listing every issue with file:line', () => {
  const text = `[[hooks]]
event = "stage_start"
type = "scripted"
blockng = true

[[hooks]]
event = "stage_strat"
type = "scripted"
timeout_ms = 0
`;
  const error = assertThrows(() => loadConfig([{ text, source: 'bad.toml' }], { runners: [scriptedRunner()] }));
  assert(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  assert(
    HooklineError.isInstance(error) && error.code === 'HOOKLINE_CONFIG_INVALID',
    'it is a Hookline error with a stable code',
  );
  const located = error.issues.map((issue) => `${issue.file}:${issue.line}`);
  assertEquals(located, ['bad.toml:4', 'bad.toml:7', 'bad.toml:9'], `issues: ${error.message}`);
  assert(error.issues[0]!.fix?.includes('blocking'), 'the typo gets a suggestion');
  for (const issue of error.issues) {
    assert(error.message.includes(formatConfigIssue(issue)), `the message lists ${formatConfigIssue(issue)}`);
  }
});

// A `command` type that records which hooks ran, so task and agent configs load without a runner package.
function recordingCommandRunner(ran: string[]) {
  return defineRunner({
    name: 'deno-command',
    types: {
      command: {
        options: v.object({ command: v.string() }),
        defaultTimeoutMs: 60_000,
        defaultOnError: 'block',
        usesSandbox: false,
        async doRun(hook) {
          ran.push(hook.name);
          const failing = hook.options.command === 'false';
          return {
            status: 'ok',
            decision: failing ? { decision: 'block', reason: 'hook exited with code 1' } : { decision: 'proceed' },
          };
        },
      },
    },
  });
}

Deno.test(
  'task preset: a point is journaled before emit returns, its commands run in order, the entry is cleared',
  async () => {
    const ran: string[] = [];
    const runner = recordingCommandRunner(ran);
    const journal = memoryJournal();
    const config = loadConfig(
      [{ text: 'preset = "task"\n[hooks]\nafter_merge = ["true", "false", "true"]\n', source: 'task.toml' }],
      { runners: [runner] },
    );
    const engine = createHookEngine({ config, runners: [runner], journal, journalKey: false });
    try {
      const outcome = await engine.emit('after_merge', { task: 't-1' });
      assertEquals(
        journal.entries.map((entry) => entry.hooks),
        [['after_merge-01', 'after_merge-02', 'after_merge-03']],
      );
      const settled = await outcome.settled;
      assertEquals(ran, ['after_merge-01', 'after_merge-02', 'after_merge-03']);
      assertEquals(settled.warnings, [
        'hook "after_merge-02" decided "block": hook exited with code 1 — it is non-blocking, so the event was not held back',
      ]);
      assertEquals(journal.entries, []);
    } finally {
      await engine.close();
    }
  },
);

Deno.test('agent preset: tool_name matches one tool exactly; the context variable stops at 16 384 bytes', async () => {
  const ran: string[] = [];
  const runner = recordingCommandRunner(ran);
  const config = loadConfig(
    [
      {
        text: 'preset = "agent"\n[[hooks]]\nevent = "pre_tool_use"\ntool_name = "Bash"\n[hooks.action]\ntype = "shell"\ncommand = "false"\n',
        source: 'agent.toml',
      },
    ],
    { runners: [runner] },
  );
  const engine = createHookEngine({ config, runners: [runner] });
  try {
    assertEquals((await engine.emit('pre_tool_use', { session_id: 's', tool_name: 'BashOutput' })).decision, 'proceed');
    assertEquals((await engine.emit('pre_tool_use', { session_id: 's', tool_name: 'Bash' })).decision, 'block');
    assertEquals(ran, ['pre_tool_use:Bash:command']);
  } finally {
    await engine.close();
  }
  const json = (bytes: number): string => `"${'é'.repeat((bytes - 2) / 2)}"`;
  assert(
    'AGENT_CODE_HOOK_CONTEXT' in agentPreset.command.environment.variables({ event: 'stop' }, json(16_384)),
    '16 384 bytes are passed',
  );
  assertEquals(
    agentPreset.command.environment.variables({ event: 'stop' }, json(16_386))['AGENT_CODE_HOOK_CONTEXT_TRUNCATED'],
    '1',
  );
});

Deno.test('matchers are RE2 on Deno too: (a+)+$ is answered at once, a backreference is a load error', async () => {
  const config = load(
    '[[hooks]]\nname = "redos"\nevent = "stage_start"\ntype = "scripted"\ndecision = "block"\nmatcher = "(a+)+$"\n',
  );
  assertEquals((await emitOnce(config, 'stage_start', { node_id: `${'a'.repeat(39)}!` })).decision, 'proceed');
  assertEquals((await emitOnce(config, 'stage_start', { node_id: 'aaaa' })).decision, 'block');
  const error = assertThrows(() => load('[[hooks]]\nevent = "stage_start"\ntype = "scripted"\nmatcher = "(a)\\\\1"\n'));
  assert(error instanceof ConfigError && error.issues[0]?.line === 4, `a located config error: ${String(error)}`);
  assert(error.issues[0]!.message.includes('backreference'), error.message);
});

Deno.test('matchers on the native fast path answer as RE2 does on Deno too', () => {
  const probes = ['', 'stage_42', 'stage_4x', 'mcp__x\n', 'a-prod', 'ab\u2028c', '\u00a0', '\v', '😀', '\ud83d', 'ſ'];
  for (const source of ['^stage_\\d+$', '^mcp__.*', '(?:^|-)prod$', '^.$', '^\\s$', '^\\w+$', '^[^a]$', '(a+)+$']) {
    const re2 = RE2JS.compile(source);
    const compiled = compileMatcher(source);
    assert(compiled.ok, source);
    for (const probe of probes)
      assertEquals([source, probe, compiled.pattern.test(probe)], [source, probe, re2.test(probe)]);
  }
  assert(
    linearNativeRegExp('^stage_\\d+$') !== undefined && linearNativeRegExp('(a+)+$') === undefined,
    'the fast path is taken only where proven linear',
  );
});

for (const check of journalConformanceCases({ create: (settings) => memoryJournal(settings) }))
  Deno.test(`memory ${check.name}`, check.run);

// The core imports no `node:` module, so it runs on Deno (and other runtimes) unchanged.
// Node's builtin modules that can be imported without the `node:` prefix (a subpath such as
// `fs/promises` is matched by its first segment). Spelled out rather than read from `node:module`, whose
// types would make this test need @types/node under core's own node_modules.
const NODE_BUILTINS = new Set([
  'assert',
  'async_hooks',
  'buffer',
  'child_process',
  'cluster',
  'console',
  'constants',
  'crypto',
  'dgram',
  'diagnostics_channel',
  'dns',
  'domain',
  'events',
  'fs',
  'http',
  'http2',
  'https',
  'inspector',
  'module',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'punycode',
  'querystring',
  'readline',
  'repl',
  'stream',
  'string_decoder',
  'sys',
  'timers',
  'tls',
  'trace_events',
  'tty',
  'url',
  'util',
  'v8',
  'vm',
  'wasi',
  'worker_threads',
  'zlib',
]);
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;

function nodeImports(source: string): string[] {
  return [...source.matchAll(SPECIFIER)]
    .map((match) => match[2]!)
    .filter((specifier) => specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]!));
}

async function* sourceFiles(folder: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(folder)) {
    const url = new URL(entry.name + (entry.isDirectory ? '/' : ''), folder);
    if (entry.isDirectory) yield* sourceFiles(url);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield url;
  }
}

Deno.test('no source file under src/ imports a node: module or a bare Node builtin', async () => {
  // The detector itself, so a broken pattern cannot pass vacuously.
  assertEquals(
    nodeImports(`import { x } from 'node:fs';\nimport * as p from "path";\nexport { y } from 'fs/promises';\nawait import('node:os');\nconst c = require('child_process');\nimport { RE2JS } from 're2js';
import * as v from 'valibot';\nimport { z } from './path.ts';`),
    ['node:fs', 'path', 'fs/promises', 'node:os', 'child_process'],
  );
  const offenders: string[] = [];
  let scanned = 0;
  const root = new URL('../../src/', import.meta.url);
  for await (const file of sourceFiles(root)) {
    scanned++;
    for (const specifier of nodeImports(await Deno.readTextFile(file))) {
      offenders.push(`src/${file.href.slice(root.href.length)} imports "${specifier}"`);
    }
  }
  assert(scanned > 20, `scanned only ${scanned} files`);
  assertEquals(offenders, [], 'core sources must not import Node modules');
});
