/**
 * Core dispatch benchmark: `emit()` against unjs/hookable `callHook` and tapable `AsyncSeriesHook`,
 * (a) for an event with no hooks among 1 000 configured and (b) for one in-memory hook that proceeds.
 * Prints a markdown table to stdout. Run with `pnpm bench` in packages/core.
 */
import { Bench, type Task } from 'tinybench';
import { noHookAmongMany, oneProceedingHook, type Contender, type Scenario } from './contenders.ts';

/**
 * Calls timed per sample. One dispatch takes well under a microsecond for some contenders, close to
 * the cost of reading the clock, so each sample times a batch of sequential, awaited calls and
 * records the per-call mean.
 */
const BATCH = 100;
/** Target is Hookline within this factor of the faster peer. */
const TARGET_SLOWDOWN = 2;

const bench = new Bench({ name: 'emit dispatch', time: 1_000, warmupTime: 250, throws: true });
const scenarios: Scenario[] = [await noHookAmongMany(), await oneProceedingHook()];
for (const scenario of scenarios) {
  for (const contender of scenario.contenders) bench.add(taskName(scenario, contender), batched(contender));
}
await bench.run();
for (const scenario of scenarios) for (const contender of scenario.contenders) await contender.close();

console.log(formatTable(scenarios, bench));

function batched(contender: Contender): () => Promise<{ overriddenDuration: number; overriddenIterationCost: number }> {
  const { call, checkBatch } = contender;
  return async () => {
    const started = bench.now();
    for (let index = 0; index < BATCH; index++) await call();
    const elapsed = bench.now() - started;
    checkBatch(BATCH);
    return { overriddenDuration: elapsed / BATCH, overriddenIterationCost: elapsed };
  };
}

function taskName(scenario: Scenario, contender: Contender): string {
  return `${scenario.title} · ${contender.library}`;
}

interface Measured {
  readonly library: string;
  /** Calls per second over the whole run: 1 000 / mean latency in ms. */
  readonly opsPerSecond: number;
  readonly meanNs: number;
  readonly p99Ns: number;
  readonly rme: number;
  readonly samples: number;
}

function measure(task: Task | undefined, library: string): Measured {
  const result = task?.result;
  if (result === undefined || (result.state !== 'completed' && result.state !== 'aborted-with-statistics')) {
    throw new Error(`task for ${library} did not complete: ${JSON.stringify(result)}`);
  }
  return {
    library,
    opsPerSecond: 1_000 / result.latency.mean,
    meanNs: result.latency.mean * 1e6,
    p99Ns: result.latency.p99 * 1e6,
    rme: result.latency.rme,
    samples: result.latency.samplesCount,
  };
}

function formatTable(scenarios: readonly Scenario[], results: Bench): string {
  const lines = [
    `Node ${process.versions.node}, ${BATCH} sequential awaited calls per sample, ~${results.time} ms per task.`,
    '',
    '| scenario | library | ops/s | mean | p99 (batch mean) | ±rme | samples | Hookline ÷ faster peer |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  const verdicts: string[] = [];
  for (const scenario of scenarios) {
    const rows = scenario.contenders.map((contender) => measure(results.getTask(taskName(scenario, contender)), contender.library));
    const hookline = rows.find((row) => row.library === 'hookline')!;
    const fasterPeer = rows.filter((row) => row !== hookline).reduce((best, row) => (row.opsPerSecond > best.opsPerSecond ? row : best));
    const ratio = hookline.opsPerSecond / fasterPeer.opsPerSecond;
    const slowdown = fasterPeer.opsPerSecond / hookline.opsPerSecond;
    for (const row of rows) {
      const comparison = row === hookline ? `${ratio.toFixed(2)} (${slowdown.toFixed(2)}× slower than ${fasterPeer.library})` : '';
      lines.push(
        `| ${scenario.title} | ${row.library} | ${formatOps(row.opsPerSecond)} | ${formatNs(row.meanNs)} | ${formatNs(row.p99Ns)} | ${row.rme.toFixed(2)}% | ${row.samples} | ${comparison} |`,
      );
    }
    verdicts.push(`- ${scenario.title}: Hookline is ${slowdown.toFixed(2)}× slower than ${fasterPeer.library} — ${slowdown <= TARGET_SLOWDOWN ? 'within' : 'OUTSIDE'} the ${TARGET_SLOWDOWN}× target`);
  }
  return [...lines, '', ...verdicts].join('\n');
}

function formatOps(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function formatNs(nanoseconds: number): string {
  return nanoseconds >= 1_000 ? `${(nanoseconds / 1_000).toFixed(2)} µs` : `${nanoseconds.toFixed(0)} ns`;
}
