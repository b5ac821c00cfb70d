/**
 * Core dispatch benchmark: `emit()` against unjs/hookable `callHook` and tapable `AsyncSeriesHook`,
 * (a) for an event with no hooks among 1 000 configured and (b) for one in-memory hook that proceeds.
 * Contenders alternate sample by sample (scripts/bench-stats.ts), so a busy machine slows them alike;
 * every figure is a median. Prints a markdown table to stdout. Run with `pnpm bench` in packages/core.
 */
import { loadavg } from 'node:os';
import { measureInterleaved, quantile, type Contender as TimedContender } from '../../../scripts/bench-stats.ts';
import { noHookAmongMany, oneProceedingHook, type Contender, type Scenario } from './contenders.ts';

/**
 * Calls timed per sample. One dispatch takes well under a microsecond for some contenders, close to
 * the cost of reading the clock, so each sample times a batch of sequential, awaited calls and
 * records the per-call mean.
 */
const BATCH = 100;
const ROUNDS = Number(process.env['ROUNDS'] ?? 3_000);

/** The targets of each scenario: Hookline's median over a peer's. */
const targets: Record<string, { readonly peer: Contender['library']; readonly factor: number }> = {
  a: { peer: 'hookable', factor: 2 },
  // One in-memory hook: at most what hookable takes (stretch: 2× tapable).
  b: { peer: 'hookable', factor: 1 },
};

const scenarios: Scenario[] = [await noHookAmongMany(), await oneProceedingHook()];
const lines = [
  `Node ${process.versions.node}, ${BATCH} sequential awaited calls per sample, ${ROUNDS} samples each, contenders interleaved.`,
  '',
  '| scenario | library | median per call | p90 per call | ÷ hookable | ÷ tapable | target |',
  '| --- | --- | ---: | ---: | ---: | ---: | --- |',
];
for (const [index, scenario] of scenarios.entries()) {
  const timed: TimedContender[] = scenario.contenders.map((contender) => ({
    name: contender.library,
    // Each sample's checks run outside the timed window, before the next sample.
    run: async () => {
      for (let call = 0; call < BATCH; call++) await contender.call();
      contender.checkBatch(BATCH);
    },
  }));
  const samples = await measureInterleaved(timed, { rounds: ROUNDS, warmup: 200 });
  const median = (library: string): number => quantile(samples.get(library)!, 0.5) / BATCH;
  const target = targets[String.fromCharCode(97 + index)]!;
  for (const contender of scenario.contenders) {
    const own = median(contender.library);
    const isHookline = contender.library === 'hookline';
    const ratio = own / median(target.peer);
    const verdict = isHookline ? `≤ ${target.factor}× ${target.peer} ${ratio <= target.factor ? '✓' : '✗'}` : '';
    lines.push(
      `| ${scenario.title} | ${contender.library} | ${formatNs(own * 1e6)} | ${formatNs((quantile(samples.get(contender.library)!, 0.9) / BATCH) * 1e6)} | ${(own / median('hookable')).toFixed(2)} | ${(own / median('tapable')).toFixed(2)} | ${verdict} |`,
    );
  }
}
for (const scenario of scenarios) for (const contender of scenario.contenders) await contender.close();
lines.push(
  '',
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} at the end`,
);
console.log(lines.join('\n'));

function formatNs(nanoseconds: number): string {
  return nanoseconds >= 1_000 ? `${(nanoseconds / 1_000).toFixed(2)} µs` : `${nanoseconds.toFixed(0)} ns`;
}
