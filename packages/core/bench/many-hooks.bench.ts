/**
 * How one emit scales with the number of hooks it selects: a config of N non-blocking in-memory hooks
 * on one event (up to the 10 000-hook limit of a configuration), loaded, emitted and settled. The
 * named baseline is the smallest size: each row is its time per hook divided by the baseline's, so a
 * linear engine stays near 1× while a quadratic step (a queue that shifted every waiter did before)
 * grows with N. Prints a markdown table. Run with `node bench/many-hooks.bench.ts` in packages/core
 * after `pnpm build`.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createHookEngine, loadConfig } from '../src/index.ts';
import { scriptedRunner } from '../src/testing/index.ts';

const SIZES = [1_000, 2_500, 5_000, 10_000];
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);

function configText(hooks: number): string {
  let text = '';
  for (let index = 0; index < hooks; index++)
    text += `[[hooks]]\nname = "h${index}"\nevent = "stage_complete"\ntype = "scripted"\n\n`;
  return text;
}

/** Milliseconds from emit to every hook settled, and the milliseconds the config took to load; best of ROUNDS. */
async function measure(hooks: number): Promise<{ readonly emit: number; readonly load: number }> {
  let bestEmit = Infinity;
  let bestLoad = Infinity;
  const text = configText(hooks);
  for (let round = 0; round < ROUNDS; round++) {
    const runner = scriptedRunner();
    const loading = performance.now();
    const config = loadConfig([{ text, source: 'many.toml' }], { runners: [runner] });
    bestLoad = Math.min(bestLoad, performance.now() - loading);
    const engine = createHookEngine({ config, runners: [runner] });
    const start = performance.now();
    const outcome = await engine.emit('stage_complete', { run_id: `r${round}`, workflow_name: 'bench' });
    const settled = await outcome.settled;
    bestEmit = Math.min(bestEmit, performance.now() - start);
    if (settled.hooks.length !== hooks || runner.calls.length !== hooks)
      throw new Error(`expected ${hooks} hooks to run, ${runner.calls.length} ran`);
    await engine.close();
  }
  return { emit: bestEmit, load: bestLoad };
}

// One untimed pass first, so the baseline does not pay for the JIT's warm-up alone.
await measure(SIZES[0]!);
const rows: Array<{ readonly hooks: number; readonly emit: number; readonly load: number }> = [];
for (const hooks of SIZES) rows.push({ hooks, ...(await measure(hooks)) });
const baseline = rows[0]!;
const lines = [
  `Node ${process.versions.node}, best of ${ROUNDS} rounds per size; baseline: ${baseline.hooks} hooks.`,
  '',
  '| hooks | load config | emit → settled | per hook | per hook ÷ baseline | target |',
  '| ---: | ---: | ---: | ---: | ---: | --- |',
];
for (const row of rows) {
  const ratio = row.emit / row.hooks / (baseline.emit / baseline.hooks);
  const verdict = row === baseline ? 'baseline' : `≤ 2× (linear) ${ratio <= 2 ? '✓' : '✗'}`;
  lines.push(
    `| ${row.hooks} | ${row.load.toFixed(0)} ms | ${row.emit.toFixed(0)} ms | ${((row.emit / row.hooks) * 1000).toFixed(1)} µs | ${ratio.toFixed(2)} | ${verdict} |`,
  );
}
lines.push(
  '',
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} at the end`,
);
console.log(lines.join('\n'));
