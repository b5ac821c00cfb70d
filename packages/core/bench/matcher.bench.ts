/**
 * What Hookline's matchers cost against the native RegExp they replaced, on ordinary patterns: (a)
 * one `test()` per pattern over a set of realistic field values — Hookline's matcher (on the path it
 * takes: literal, native proven linear, or RE2), a native RegExp of the same source, and RE2 alone
 * (re2js, what every non-literal pattern ran on before the native path); (b) `emit()` of an event
 * whose one hook has a matcher, with the engine's matchers as loaded and swapped for native RegExps
 * of the same source (the old engine). Prints a markdown table of medians and ratios. Part of `pnpm bench`.
 */
import assert from 'node:assert/strict';
import { RE2JS } from 're2js';
import { availableParallelism, loadavg } from 'node:os';
import { createHookEngine, loadConfig, type HookConfig } from '../src/index.ts';
import { compileMatcher, type Matcher } from '../src/selection/compile-matcher.ts';
import { linearNativeRegExp } from '../src/selection/linear-native-regexp.ts';
import { literalAlternatives } from '../src/selection/literal-alternatives.ts';
import { scriptedRunner } from '../src/testing/index.ts';
import { measureInterleaved, quantile, type Contender } from '../../../scripts/bench-stats.ts';

/** Patterns as configs write them (the READMEs' examples and their kin). */
const PATTERNS = [
  'deploy',
  '^deploy$',
  '^Bash$',
  '^(build|test)$',
  'deploy|release',
  '^lint',
  '^stage_\\d+$',
  '^mcp__.*',
  '(?:^|-)prod$',
  '^[a-z]+-(agent|review)$',
  'stage_\\d+',
  '^(?:implement|code)-\\w+$',
  '(?i)^bash$',
  'gent.*review',
  '(deploy|stage).*\\d$',
];
/** Field values a matcher meets: node ids, handler types, tool names. */
const VALUES = [
  'build',
  'deploy',
  'deploy-prod',
  'stage_42',
  'implement-agent',
  'code-review',
  'Bash',
  'mcp__github__create_issue',
  'lint',
  'release-candidate-7',
  'a-node-id-of-forty-characters-0123456789',
];
/** `test()` calls per timed sample: one is close to the clock's resolution. */
const BATCH = 2_000;
const ROUNDS = 200;

function hooklineMatcher(source: string): Matcher {
  const compiled = compileMatcher(source);
  if (!compiled.ok) throw new Error(`${source}: ${compiled.error}`);
  return compiled.pattern;
}

function testing(pattern: { test(text: string): boolean }): () => Promise<void> {
  return async () => {
    let hits = 0;
    for (let index = 0; index < BATCH; index++) if (pattern.test(VALUES[index % VALUES.length]!)) hits++;
    sink += hits;
  };
}
let sink = 0;

const rows: string[] = [];
for (const source of PATTERNS) {
  // JavaScript has no leading `(?i)`: the same pattern with the `i` flag.
  const native = source.startsWith('(?i)') ? new RegExp(source.slice(4), 'i') : new RegExp(source);
  const hookline = hooklineMatcher(source);
  for (const value of VALUES)
    assert.equal(hookline.test(value), native.test(value), `${source} on ${value}: Hookline and RegExp disagree`);
  const alone = RE2JS.compile(source);
  const contenders: Contender[] = [
    { name: 'RegExp', run: testing(native) },
    { name: 'Hookline', run: testing(hookline) },
    { name: 'RE2', run: testing(alone) },
  ];
  const samples = await measureInterleaved(contenders, { rounds: ROUNDS, warmup: 20 });
  const [before, after, re2Only] = ['RegExp', 'Hookline', 'RE2'].map(
    (name) => (quantile(samples.get(name)!, 0.5) / BATCH) * 1e6,
  ) as [number, number, number];
  const path =
    literalAlternatives(source) !== undefined
      ? 'literal'
      : linearNativeRegExp(source) !== undefined
        ? 'native, proven linear'
        : 'RE2';
  rows.push(
    `| \`${source}\` | ${path} | ${before.toFixed(0)} ns | ${after.toFixed(0)} ns | ${(after / before).toFixed(2)}× | ${re2Only.toFixed(0)} ns | ${(re2Only / before).toFixed(2)}× |`,
  );
}

// (b) emit: one blocking in-memory hook whose matcher is tried against node_id.
const emitRows: string[] = [];
for (const source of ['^deploy$', '^stage_\\d+$']) {
  const runner = scriptedRunner();
  const toml = `[[hooks]]\nname = "gate"\nevent = "stage_start"\ntype = "scripted"\nmatcher = ${JSON.stringify(source)}\n`;
  const config = loadConfig([{ text: toml, source: 'bench.toml' }], { runners: [runner] });
  const nativeConfig: HookConfig = {
    ...config,
    hooks: config.hooks.map((hook) => ({ ...hook, matcherPattern: new RegExp(hook.matcher!) })),
  };
  const context = {
    run_id: 'bench-run',
    workflow_name: 'bench',
    node_id: source === '^deploy$' ? 'deploy' : 'stage_42',
  };
  const engines = {
    RegExp: createHookEngine({ config: nativeConfig, runners: [runner] }),
    Hookline: createHookEngine({ config, runners: [runner] }),
  };
  const contenders: Contender[] = Object.entries(engines).map(([name, engine]) => ({
    name,
    run: async () => {
      for (let index = 0; index < 100; index++) {
        const outcome = await engine.emit('stage_start', context);
        await outcome.settled;
      }
    },
  }));
  const samples = await measureInterleaved(contenders, { rounds: ROUNDS, warmup: 20 });
  assert.ok(runner.calls.length > 0 && runner.calls.length % 100 === 0, 'every emit ran the hook');
  const before = (quantile(samples.get('RegExp')!, 0.5) / 100) * 1e6;
  const after = (quantile(samples.get('Hookline')!, 0.5) / 100) * 1e6;
  emitRows.push(
    `| emit, one hook, \`${source}\` | ${(before / 1_000).toFixed(2)} µs | ${(after / 1_000).toFixed(2)} µs | ${(after / before).toFixed(2)}× |`,
  );
  for (const engine of Object.values(engines)) await engine.close();
}

console.log(
  [
    `Node ${process.versions.node}, ${availableParallelism()} CPUs, load ${loadavg()[0]!.toFixed(2)}; medians of ${ROUNDS} interleaved samples.`,
    '',
    `(a) one \`test()\` (mean over ${BATCH} calls across ${VALUES.length} field values)`,
    '',
    '| pattern | path | native RegExp | Hookline | ratio | RE2 alone | ratio |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    '(b) `emit()` + `settled`, the matcher tried against node_id',
    '',
    '| scenario | native RegExp | Hookline | ratio |',
    '| --- | ---: | ---: | ---: |',
    ...emitRows,
    '',
    `(checksum ${sink})`,
  ].join('\n'),
);
