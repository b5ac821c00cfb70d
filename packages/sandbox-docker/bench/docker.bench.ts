/**
 * What a hook costs in the docker sandbox, in one run: (a) warm per-hook latency of a command hook
 * `exit 0` through the engine (container already up; the container's agent writes and removes the
 * context file, starts the hook, carries its stdin, output and exit, and reads the limit counters)
 * against (b) one bare dockerode exec of the same `sh -c 'exit 0'` into the same container (create,
 * start attached, wait, inspect) — the baseline —, (c) the same hook through the sandbox session
 * without the engine and runner (what the sandbox itself costs), (d) writing and removing a context
 * file through the agent (two round trips of the runner's, part of (a)), and (e) `docker run --rm` of
 * the same command per hook with the same hardening flags; then (f) the cold first hook of a run
 * (creating and starting its container). Prints a markdown table of medians and ratios, with the
 * load average before and after.
 * Run with `pnpm bench` in packages/sandbox-docker (needs the test image: scripts/build-test-image.sh).
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import Docker from 'dockerode';
import { createHookEngine, loadConfig, messageOf, type HookEngine } from '@hookline/core';
import { commandRunner } from '@hookline/runner-command';
import { dockerSandbox } from '../src/index.ts';
import { measureInterleaved, quantile, type Contender } from '../../../scripts/bench-stats.ts';

const IMAGE = process.env['HOOKLINE_TEST_IMAGE'] ?? 'hookline-test/busybox';
const WARM_ROUNDS = 60;
const COLD_ROUNDS = 15;
/** Issue 17: a warm hook at most a quarter of one bare exec (stretch: a tenth). */
const TARGET_VS_EXEC = 0.25;
const STRETCH_VS_EXEC = 0.1;
const TARGET_VS_RUN = 4;
const HARDENING = [
  '--network',
  'none',
  '--cap-drop',
  'ALL',
  '--security-opt',
  'no-new-privileges',
  '--read-only',
  '--tmpfs',
  '/tmp:rw,nosuid,nodev,noexec,size=64m,mode=1777',
  '--pids-limit',
  '256',
  '--memory',
  '512m',
  '--memory-swap',
  '512m',
  '--cpus',
  '1',
  '--user',
  '65534:65534',
  '--init',
];

const docker = new Docker();
try {
  await docker.ping();
  await docker.getImage(IMAGE).inspect();
} catch (error) {
  // The root `pnpm bench` runs every package's benchmark; without Docker this one has nothing to measure.
  console.log(
    `docker sandbox benchmark skipped: no Docker engine, or no image ${IMAGE} (scripts/build-test-image.sh builds it): ${messageOf(error)}`,
  );
  process.exit(process.env['HOOKLINE_REQUIRE_DOCKER'] === '1' ? 1 : 0);
}
const runners = [commandRunner()];
const config = loadConfig(
  [
    {
      text: '[sandbox]\nprovider = "docker"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "exit 0"\n',
      source: 'bench.toml',
    },
  ],
  { runners },
);
const loadBefore = loadavg()[0]!;
const sandbox = dockerSandbox({ image: IMAGE });
const engine: HookEngine = createHookEngine({ config, runners, sandbox });
const context = { run_id: 'bench-warm', workflow_name: 'bench', node_id: 'build' };

async function hook(target: HookEngine, runId: string): Promise<void> {
  const outcome = await (await target.emit('stage_start', { ...context, run_id: runId })).settled;
  const report = outcome.hooks[0];
  if (report?.status !== 'ok' || report['exit_code'] !== 0)
    throw new Error(`the hook did not run ok: ${JSON.stringify(report)}`);
}

// The bare exec goes into the engine's own run container, so both contenders share one container and one cgroup.
await hook(engine, context.run_id);
const [listed] = await docker.listContainers({ filters: { label: [`dev.hookline.run-id=${context.run_id}`] } });
if (listed === undefined) throw new Error('the warm run container is missing');
const container = docker.getContainer(listed.Id);
// A session of the same run: the sandbox alone, without the engine, the runner and the context file.
const session = await sandbox.doOpen(context.run_id, new AbortController().signal);

let written = 0;
async function contextFile(): Promise<void> {
  const path = await session.writeFile({
    name: `bench-${written++}.json`,
    data: JSON.stringify({ event: 'stage_start', ...context }),
    mode: 0o600,
  });
  await session.removeFile(path);
}

async function sessionExec(): Promise<void> {
  const result = await session.exec({ command: 'exit 0', stdin: '{}' });
  if (result.exitCode !== 0 || (result.warnings ?? []).length > 0)
    throw new Error(`session exec: ${JSON.stringify(result)}`);
}

async function bareExec(): Promise<void> {
  const exec = await container.exec({
    Cmd: ['sh', '-c', 'exit 0'],
    User: '65534:65534',
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = await exec.start({ hijack: true, stdin: true });
  const ended = new Promise<void>((resolve) => {
    stream.on('data', () => undefined);
    stream.once('end', resolve);
  });
  stream.end('{}');
  await ended;
  const state = await exec.inspect();
  if (state.ExitCode !== 0) throw new Error(`bare exec exited ${String(state.ExitCode)}`);
}

function dockerRun(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', ['run', '--rm', '-i', ...HARDENING, IMAGE, 'sh', '-c', 'exit 0'], {
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    child.stdin.end('{}');
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`docker run exited ${String(code)}`))));
  });
}

let coldRun = 0;
const coldEngine = createHookEngine({ config, runners, sandbox: dockerSandbox({ image: IMAGE }) });
async function coldHook(): Promise<void> {
  const runId = `bench-cold-${coldRun++}`;
  const started = performance.now();
  await hook(coldEngine, runId);
  const elapsed = performance.now() - started;
  await coldEngine.endRun(runId); // removal is not timed
  coldSamples.push(elapsed);
}
const coldSamples: number[] = [];

const warm: Contender[] = [
  { name: 'hook `exit 0` through the engine, docker sandbox (warm)', run: () => hook(engine, context.run_id) },
  { name: "bare dockerode exec `sh -c 'exit 0'`", run: bareExec },
  { name: '`session.exec` `exit 0` (the sandbox alone, warm)', run: sessionExec },
  { name: 'context file written and removed through the agent', run: contextFile },
  { name: '`docker run --rm` per hook (same hardening)', run: dockerRun },
];
const samples = await measureInterleaved(warm, { rounds: WARM_ROUNDS, warmup: 5 });
for (let round = 0; round < COLD_ROUNDS; round++) await coldHook();
await session.dispose();
await Promise.all([engine.close(), coldEngine.close()]);

const median = (name: string): number => quantile(samples.get(name)!, 0.5);
const p90 = (name: string): number => quantile(samples.get(name)!, 0.9);
const [hookName, execName, sessionName, fileName, runName] = warm.map((contender) => contender.name) as [
  string,
  string,
  string,
  string,
  string,
];
const vsExec = median(hookName) / median(execName);
const sessionVsExec = median(sessionName) / median(execName);
const vsRun = median(runName) / median(hookName);
const coldMedian = quantile(coldSamples, 0.5);
const mark = (ratio: number): string =>
  ratio <= STRETCH_VS_EXEC ? '✓ (stretch ✓)' : ratio <= TARGET_VS_EXEC ? '✓' : '✗';

console.log(
  `\ndocker sandbox — node ${process.version}, ${availableParallelism()} CPUs, ${process.platform}, Docker ${(await docker.version()).Version}, ` +
    `load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n`,
);
console.log('| contender | samples | median ms | p90 ms | ratio | target |');
console.log('|---|---:|---:|---:|---:|---|');
console.log(
  `| ${execName} (baseline) | ${WARM_ROUNDS} | ${median(execName).toFixed(1)} | ${p90(execName).toFixed(1)} | 1.00 | |`,
);
console.log(
  `| ${hookName} | ${WARM_ROUNDS} | ${median(hookName).toFixed(1)} | ${p90(hookName).toFixed(1)} | ${vsExec.toFixed(2)}× the bare exec | ≤ ${TARGET_VS_EXEC}× (stretch ≤ ${STRETCH_VS_EXEC}×) ${mark(vsExec)} |`,
);
console.log(
  `| ${sessionName} | ${WARM_ROUNDS} | ${median(sessionName).toFixed(1)} | ${p90(sessionName).toFixed(1)} | ${sessionVsExec.toFixed(2)}× the bare exec | |`,
);
console.log(
  `| ${fileName} | ${WARM_ROUNDS} | ${median(fileName).toFixed(1)} | ${p90(fileName).toFixed(1)} | ${(median(fileName) / median(execName)).toFixed(2)}× the bare exec | |`,
);
console.log(
  `| ${runName} | ${WARM_ROUNDS} | ${median(runName).toFixed(1)} | ${p90(runName).toFixed(1)} | hook is ${vsRun.toFixed(1)}× faster | ≥ ${TARGET_VS_RUN}× ${vsRun >= TARGET_VS_RUN ? '✓' : '✗'} |`,
);
console.log(
  `| cold first hook of a run (container created and started) | ${COLD_ROUNDS} | ${coldMedian.toFixed(1)} | ${quantile(coldSamples, 0.9).toFixed(1)} | ${(coldMedian / median(hookName)).toFixed(1)}× a warm hook | |`,
);
console.log(
  vsExec > TARGET_VS_EXEC || vsRun < TARGET_VS_RUN
    ? '\nSome ratio misses its target (a loaded machine makes this noisy: run again before concluding).'
    : '\nEvery ratio is within its target.',
);
