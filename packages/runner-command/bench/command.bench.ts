/**
 * What the command runner costs on top of starting the process itself: (a) one blocking hook
 * `sh -c 'exit 0'` through the engine (on the host, and in the local sandbox) against a bare
 * `child_process.spawn` of the same command; (b) 100 non-blocking hooks through an engine with
 * concurrency 8 against 100 bare spawns, 8 at a time. Prints a markdown table of medians and ratios.
 * Run with `pnpm bench` in packages/runner-command.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { createHookEngine, loadConfig, type HookEngine } from '@hookline/core';
import { commandRunner, localSandbox } from '../src/index.ts';
import { measureInterleaved, quantile, type Contender, type Samples } from '../../../scripts/bench-stats.ts';

const SINGLE_ROUNDS = 300;
const FAN_OUT_ROUNDS = 30;
const FAN_OUT = 100;
const CONCURRENCY = 8;
const TARGET_SINGLE = 1.15;
const TARGET_FAN_OUT = 1.2;
const context = { run_id: 'bench-run', workflow_name: 'bench', node_id: 'build' };

function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'exit 0']);
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

async function bareFanOut(): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < FAN_OUT) {
      next++;
      await bareSpawn();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

function engineWith(toml: string): HookEngine {
  const runners = [commandRunner()];
  return createHookEngine({
    config: loadConfig([{ text: toml, source: 'bench.toml' }], { runners }),
    runners,
    sandbox: localSandbox(),
    concurrency: CONCURRENCY,
  });
}

const hostEngine = engineWith(`[[hooks]]\nevent = "stage_start"\ncommand = "exit 0"\nsandbox = false\n`);
const localEngine = engineWith(`[[hooks]]\nevent = "stage_start"\ncommand = "exit 0"\n`);
const fanOutToml = (sandbox: boolean): string =>
  Array.from(
    { length: FAN_OUT },
    (_, index) =>
      `[[hooks]]\nname = "h${index}"\nevent = "stage_start"\nblocking = false\ncommand = "exit 0"\nsandbox = ${sandbox}\n`,
  ).join('\n');
const hostFanOutEngine = engineWith(fanOutToml(false));
const localFanOutEngine = engineWith(fanOutToml(true));

async function emitChecked(engine: HookEngine): Promise<void> {
  const outcome = await engine.emit('stage_start', context);
  const settled = await outcome.settled;
  const bad = settled.hooks.find((report) => report.status !== 'ok');
  if (bad !== undefined) throw new Error(`a hook did not run ok: ${JSON.stringify(bad)}`);
}

const single: Contender[] = [
  { name: 'bare spawn', run: bareSpawn },
  { name: 'hook, sandbox = false', run: () => emitChecked(hostEngine) },
  { name: 'hook, local sandbox', run: () => emitChecked(localEngine) },
];
const fanOut: Contender[] = [
  { name: `${FAN_OUT} bare spawns, ${CONCURRENCY} at a time`, run: bareFanOut },
  { name: `${FAN_OUT} hooks, sandbox = false`, run: () => emitChecked(hostFanOutEngine) },
  { name: `${FAN_OUT} hooks, local sandbox`, run: () => emitChecked(localFanOutEngine) },
];

const singleSamples = await measureInterleaved(single, { rounds: SINGLE_ROUNDS, warmup: 30 });
const fanOutSamples = await measureInterleaved(fanOut, { rounds: FAN_OUT_ROUNDS, warmup: 3 });
await Promise.all([hostEngine, localEngine, hostFanOutEngine, localFanOutEngine].map((engine) => engine.close()));

// The load average goes into the header: on a busy machine the ratios drift, and the reader should know.
console.log(
  `\ncommand runner vs bare child_process.spawn — node ${process.version}, ${availableParallelism()} CPUs, ${process.platform}, load average ${loadavg()[0]!.toFixed(2)} at the end\n`,
);
console.log('| scenario | contender | samples | median ms | p90 ms | ratio to bare (median) | target |');
console.log('|---|---|---:|---:|---:|---:|---|');
let missed = false;
missed = printRows("one hook `sh -c 'exit 0'`", single, singleSamples, TARGET_SINGLE) || missed;
missed = printRows(`fan-out of ${FAN_OUT}`, fanOut, fanOutSamples, TARGET_FAN_OUT) || missed;
console.log(
  missed
    ? '\nSome ratio is over its target (a loaded machine makes this noisy: run again before concluding).'
    : '\nEvery ratio is within its target.',
);

function printRows(scenario: string, contenders: readonly Contender[], samples: Samples, target: number): boolean {
  const baseline = quantile(samples.get(contenders[0]!.name)!, 0.5);
  let over = false;
  for (const [index, contender] of contenders.entries()) {
    const values = samples.get(contender.name)!;
    const median = quantile(values, 0.5);
    const ratio = median / baseline;
    const verdict = index === 0 ? '' : ratio <= target ? `≤ ${target}× ✓` : `≤ ${target}× ✗`;
    if (index > 0 && ratio > target) over = true;
    console.log(
      `| ${scenario} | ${contender.name} | ${values.length} | ${median.toFixed(3)} | ${quantile(values, 0.9).toFixed(3)} | ${index === 0 ? '1.00' : ratio.toFixed(3)} | ${verdict} |`,
    );
  }
  return over;
}
