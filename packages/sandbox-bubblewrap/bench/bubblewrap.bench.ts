/**
 * What a hook costs in the bubblewrap sandbox, in one run, interleaved: (a) a command hook `true`
 * through the engine in the bubblewrap sandbox (context file written, bound and removed, stdin,
 * output capture, exit code — a fresh sandbox per hook) against (b) a bare Node spawn of
 * `sh -c 'exit 0'`, and against (c) the same hook in the docker sandbox with a warm container (when
 * a Docker engine and the test image are there; else that row is skipped with the reason). Prints a
 * markdown table of medians and ratios. Run with `pnpm bench` in packages/sandbox-bubblewrap.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import process from 'node:process';
import { createHookEngine, loadConfig, type HookEngine, type SandboxProvider } from '@hookline/core';
import { commandRunner } from '@hookline/runner-command';
import { bubblewrapSandbox } from '../src/index.ts';
import { measureInterleaved, quantile, type Contender } from '../../../scripts/bench-stats.ts';

const ROUNDS = 60;
const TARGET_VS_SPAWN = 3;
const TARGET_VS_DOCKER = 10;
const IMAGE = process.env['HOOKLINE_TEST_IMAGE'] ?? 'hookline-test/busybox';
const context = { run_id: 'bench', workflow_name: 'bench', node_id: 'build' };

function engineWith(provider: string, sandbox: SandboxProvider): HookEngine {
  const runners = [commandRunner()];
  const config = loadConfig([{ text: `[sandbox]\nprovider = "${provider}"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\n`, source: 'bench.toml' }], { runners });
  return createHookEngine({ config, runners, sandbox });
}

async function hook(engine: HookEngine): Promise<void> {
  const outcome = await (await engine.emit('stage_start', context)).settled;
  const report = outcome.hooks[0];
  if (report?.status !== 'ok' || report['exit_code'] !== 0) throw new Error(`the hook did not run ok: ${JSON.stringify(report)}`);
}

function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'exit 0'], { stdio: ['pipe', 'pipe', 'pipe'] });
    // As the runner feeds a hook: `exit 0` never reads stdin, so the write may meet a closed pipe.
    child.stdin.on('error', () => undefined);
    child.stdin.end('{}');
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`sh exited ${String(code)}`))));
  });
}

const bubblewrap = engineWith('bubblewrap', bubblewrapSandbox());
try {
  await hook(bubblewrap);
} catch (error) {
  console.log(`bubblewrap sandbox benchmark skipped: bwrap cannot make a sandbox here: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_BUBBLEWRAP'] === '1' ? 1 : 0);
}

// The docker provider is a dev dependency of this package for this comparison only.
let docker: HookEngine | undefined;
let dockerSkipped = '';
try {
  const { dockerSandbox } = await import('@hookline/sandbox-docker');
  const candidate = engineWith('docker', dockerSandbox({ image: IMAGE }));
  await hook(candidate); // the first hook creates the run's container: later ones are warm
  docker = candidate;
} catch (error) {
  dockerSkipped = `no Docker engine or no image ${IMAGE} (scripts/build-test-image.sh builds it): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
}

const names = { hook: 'hook `true` through the engine, bubblewrap sandbox', spawn: "bare Node spawn of `sh -c 'exit 0'`", docker: 'hook `true` through the engine, docker sandbox (warm container)' };
const contenders: Contender[] = [
  { name: names.hook, run: () => hook(bubblewrap) },
  { name: names.spawn, run: bareSpawn },
  ...(docker === undefined ? [] : [{ name: names.docker, run: () => hook(docker!) }]),
];
const samples = await measureInterleaved(contenders, { rounds: ROUNDS, warmup: 5 });
await Promise.all([bubblewrap.close(), docker?.close()]);

const median = (name: string): number => quantile(samples.get(name)!, 0.5);
const p90 = (name: string): number => quantile(samples.get(name)!, 0.9);
const vsSpawn = median(names.hook) / median(names.spawn);

console.log(`\nbubblewrap sandbox — node ${process.version}, ${availableParallelism()} CPUs, ${process.platform}, load average ${loadavg()[0]!.toFixed(2)} at the end\n`);
console.log('| contender | samples | median ms | p90 ms | ratio | target |');
console.log('|---|---:|---:|---:|---:|---|');
console.log(`| ${names.spawn} | ${ROUNDS} | ${median(names.spawn).toFixed(2)} | ${p90(names.spawn).toFixed(2)} | 1.00 | |`);
console.log(`| ${names.hook} | ${ROUNDS} | ${median(names.hook).toFixed(2)} | ${p90(names.hook).toFixed(2)} | ${vsSpawn.toFixed(2)}× the bare spawn | ≤ ${TARGET_VS_SPAWN}× ${vsSpawn <= TARGET_VS_SPAWN ? '✓' : '✗'} |`);
let missed = vsSpawn > TARGET_VS_SPAWN;
if (docker === undefined) {
  console.log(`| ${names.docker} | — | — | — | skipped: ${dockerSkipped} | ≥ ${TARGET_VS_DOCKER}× faster |`);
} else {
  const vsDocker = median(names.docker) / median(names.hook);
  missed ||= vsDocker < TARGET_VS_DOCKER;
  console.log(`| ${names.docker} | ${ROUNDS} | ${median(names.docker).toFixed(2)} | ${p90(names.docker).toFixed(2)} | bubblewrap is ${vsDocker.toFixed(1)}× faster | ≥ ${TARGET_VS_DOCKER}× ${vsDocker >= TARGET_VS_DOCKER ? '✓' : '✗'} |`);
}
console.log(missed ? '\nSome ratio misses its target (a loaded machine makes this noisy: run again before concluding).' : '\nEvery ratio is within its target.');
