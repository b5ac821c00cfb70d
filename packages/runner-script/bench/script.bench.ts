/**
 * What the script runner costs on top of isolated-vm itself: one blocking script hook through the
 * engine (`await engine.emit(…)`) against the same script run directly with isolated-vm the way a
 * host would without Hookline — one warm isolate, a fresh context per run (as the runner does), the
 * context copied in, the result copied out. Both sides reuse one isolate. Prints a markdown table of
 * per-hook medians in µs and the ratio. Run with `pnpm bench` in packages/runner-script (it starts
 * Node with --no-node-snapshot, which isolated-vm requires).
 */
import { availableParallelism, loadavg } from 'node:os';
import { createHookEngine, loadConfig, type HookEngine } from '@hookline/core';
import ivm from 'isolated-vm';
import { scriptRunner } from '../src/index.ts';
import { measureInterleaved, quantile, type Contender } from '../../../scripts/bench-stats.ts';

const ROUNDS = 100;
const BATCH = 20;
const TARGET = 1.5;
const context = { run_id: 'bench-run', workflow_name: 'bench', node_id: 'build', handler_type: 'command' };

interface Scenario {
  readonly name: string;
  readonly script: string;
  /** What the bare run must return, so both sides provably did the same work. */
  readonly expected: unknown;
  /** The decision the hook must report. */
  readonly decision: string;
}

const scenarios: Scenario[] = [
  { name: '`return true`', script: 'return true', expected: true, decision: 'proceed' },
  {
    name: 'a policy reading the context',
    script:
      "const frozen = ['deploy', 'release'];\nif (frozen.includes(context.node_id)) return { decision: 'block', reason: 'frozen' };\nreturn { decision: 'skip', reason: context.node_id + ' is not frozen' };",
    expected: { decision: 'skip', reason: 'build is not frozen' },
    decision: 'skip',
  },
];

const runner = scriptRunner({ poolSize: 1 });
const isolate = new ivm.Isolate({ memoryLimit: 32 });
const engines: HookEngine[] = [];
const rows: string[] = [];
let missed = false;

for (const scenario of scenarios) {
  const toml = `[[hooks]]\nname = "bench"\nevent = "stage_start"\ntype = "script"\nscript = ${JSON.stringify(scenario.script)}\n`;
  const engine = createHookEngine({
    config: loadConfig([{ text: toml, source: 'bench.toml' }], { runners: [runner] }),
    runners: [runner],
  });
  engines.push(engine);
  const closure = `return (async (context) => {\n${scenario.script}\n})($0)`;
  const expectedJson = JSON.stringify(scenario.expected);

  const contenders: Contender[] = [
    {
      name: 'isolated-vm: fresh context + evalClosure',
      async run() {
        const fresh = await isolate.createContext();
        try {
          const result: unknown = await fresh.evalClosure(closure, [context], {
            arguments: { copy: true },
            result: { promise: true, copy: true },
            timeout: 1_000,
          });
          if (JSON.stringify(result) !== expectedJson) throw new Error(`bare run returned ${JSON.stringify(result)}`);
        } finally {
          fresh.release();
        }
      },
    },
    {
      name: 'Hookline: engine.emit, one script hook',
      async run() {
        const outcome = await engine.emit('stage_start', context);
        const report = outcome.hooks[0];
        if (report?.status !== 'ok' || report.decision?.decision !== scenario.decision)
          throw new Error(`the hook reported ${JSON.stringify(report)}`);
      },
    },
  ];
  // Per-hook figures in µs: the shared helper measures milliseconds.
  const samples = new Map(
    [...(await measureInterleaved(contenders, { rounds: ROUNDS, warmup: 5, batch: BATCH }))].map(([name, values]) => [
      name,
      values.map((value) => value * 1_000),
    ]),
  );
  const baseline = quantile(samples.get(contenders[0]!.name)!, 0.5);
  for (const [index, contender] of contenders.entries()) {
    const values = samples.get(contender.name)!;
    const median = quantile(values, 0.5);
    const ratio = median / baseline;
    if (index > 0 && ratio > TARGET) missed = true;
    const verdict = index === 0 ? '' : `≤ ${TARGET}× ${ratio <= TARGET ? '✓' : '✗'}`;
    rows.push(
      `| ${scenario.name} | ${contender.name} | ${values.length} × ${BATCH} | ${median.toFixed(0)} | ${quantile(values, 0.9).toFixed(0)} | ${index === 0 ? '1.00' : ratio.toFixed(2)} | ${verdict} |`,
    );
  }
}

await Promise.all(engines.map((engine) => engine.close()));
isolate.dispose();

// The load average goes into the header: on a busy machine the ratios drift, and the reader should know.
console.log(
  `\nscript runner vs bare isolated-vm — node ${process.version}, ${availableParallelism()} CPUs, ${process.platform}, load average ${loadavg()[0]!.toFixed(2)} at the end\n`,
);
console.log('| script | contender | samples | median µs/hook | p90 µs/hook | ratio to bare (median) | target |');
console.log('|---|---|---:|---:|---:|---:|---|');
for (const row of rows) console.log(row);
console.log(
  missed
    ? '\nSome ratio is over its target (a loaded machine makes this noisy: run again before concluding).'
    : '\nEvery ratio is within its target.',
);
