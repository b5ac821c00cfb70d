/**
 * What a hook costs in the bubblewrap sandbox, in one run, interleaved: (a) a command hook `true`
 * through the engine in the bubblewrap sandbox (context file written, bound and removed, stdin,
 * output capture, exit code — a fresh sandbox per hook) against (b) a bare Node spawn of
 * `sh -c 'exit 0'`, and against (c) the same hook in the docker sandbox with a warm container (when
 * a Docker engine and the test image are there; else that row is skipped with the reason). Then,
 * where a hook's time goes: Node spawns of bwrap with the sandbox built up layer by layer (bwrap's
 * floor, the namespaces, the network namespace, the provider's full arguments, the verifying shell) beside the same bare
 * spawn and hook. Prints markdown tables of medians and ratios. Run with `pnpm bench` in
 * packages/sandbox-bubblewrap.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import process from 'node:process';
import { createHookEngine, loadConfig, messageOf, type HookEngine, type SandboxProvider } from '@hookline/core';
import { commandRunner } from '@hookline/runner-command';
import { bubblewrapSandbox } from '../src/index.ts';
import { bwrapArguments } from '../src/bwrap-arguments.ts';
import { systemArguments } from '../src/host-layout.ts';
import { VERIFY_SCRIPT } from '../src/plan-binds.ts';
import { measureInterleaved, quantile, type Contender } from '../../../scripts/bench-stats.ts';

const ROUNDS = 60;
const TARGET_VS_SPAWN = 3;
const TARGET_VS_DOCKER = 10;
const IMAGE = process.env['HOOKLINE_TEST_IMAGE'] ?? 'hookline-test/busybox';
const context = { run_id: 'bench', workflow_name: 'bench', node_id: 'build' };

function engineWith(provider: string, sandbox: SandboxProvider): HookEngine {
  const runners = [commandRunner()];
  const config = loadConfig(
    [
      {
        text: `[sandbox]\nprovider = "${provider}"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\n`,
        source: 'bench.toml',
      },
    ],
    { runners },
  );
  return createHookEngine({ config, runners, sandbox });
}

async function hook(engine: HookEngine): Promise<void> {
  const outcome = await (await engine.emit('stage_start', context)).settled;
  const report = outcome.hooks[0];
  if (report?.status !== 'ok' || report['exit_code'] !== 0)
    throw new Error(`the hook did not run ok: ${JSON.stringify(report)}`);
}

function bareSpawn(): Promise<void> {
  return spawnExit0('sh', ['-c', 'exit 0']);
}

function spawnExit0(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    // As the runner feeds a hook: `exit 0` never reads stdin, so the write may meet a closed pipe.
    child.stdin.on('error', () => undefined);
    child.stdin.end('{}');
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${String(code)}`))));
  });
}

const bubblewrap = engineWith('bubblewrap', bubblewrapSandbox());
try {
  await hook(bubblewrap);
} catch (error) {
  console.log(`bubblewrap sandbox benchmark skipped: bwrap cannot make a sandbox here: ${messageOf(error)}`);
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

const names = {
  hook: 'hook `true` through the engine, bubblewrap sandbox',
  spawn: "bare Node spawn of `sh -c 'exit 0'`",
  docker: 'hook `true` through the engine, docker sandbox (warm container)',
};
const contenders: Contender[] = [
  { name: names.hook, run: () => hook(bubblewrap) },
  { name: names.spawn, run: bareSpawn },
  ...(docker === undefined ? [] : [{ name: names.docker, run: () => hook(docker) }]),
];
const samples = await measureInterleaved(contenders, { rounds: ROUNDS, warmup: 5 });
await docker?.close();

const median = (name: string): number => quantile(samples.get(name)!, 0.5);
const p90 = (name: string): number => quantile(samples.get(name)!, 0.9);
const vsSpawn = median(names.hook) / median(names.spawn);

console.log(
  `\nbubblewrap sandbox — node ${process.version}, ${availableParallelism()} CPUs, ${process.platform}, load average ${loadavg()[0]!.toFixed(2)} at the end\n`,
);
console.log('| contender | samples | median ms | p90 ms | ratio | target |');
console.log('|---|---:|---:|---:|---:|---|');
console.log(
  `| ${names.spawn} | ${ROUNDS} | ${median(names.spawn).toFixed(2)} | ${p90(names.spawn).toFixed(2)} | 1.00 | |`,
);
console.log(
  `| ${names.hook} | ${ROUNDS} | ${median(names.hook).toFixed(2)} | ${p90(names.hook).toFixed(2)} | ${vsSpawn.toFixed(2)}× the bare spawn | ≤ ${TARGET_VS_SPAWN}× ${vsSpawn <= TARGET_VS_SPAWN ? '✓' : '✗'} |`,
);
let missed = vsSpawn > TARGET_VS_SPAWN;
if (docker === undefined) {
  console.log(`| ${names.docker} | — | — | — | skipped: ${dockerSkipped} | ≥ ${TARGET_VS_DOCKER}× faster |`);
} else {
  const vsDocker = median(names.docker) / median(names.hook);
  missed ||= vsDocker < TARGET_VS_DOCKER;
  console.log(
    `| ${names.docker} | ${ROUNDS} | ${median(names.docker).toFixed(2)} | ${p90(names.docker).toFixed(2)} | bubblewrap is ${vsDocker.toFixed(1)}× faster | ≥ ${TARGET_VS_DOCKER}× ${vsDocker >= TARGET_VS_DOCKER ? '✓' : '✗'} |`,
  );
}
console.log(
  missed
    ? '\nSome ratio misses its target (a loaded machine makes this noisy: run again before concluding).'
    : '\nEvery ratio is within its target.',
);

// Where the time goes: the sandbox built up layer by layer, each a Node spawn of `bwrap … sh -c 'exit 0'`.
const namespaces = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup'];
const system = systemArguments();
// Without the working directory: the provider binds it through a descriptor its launch opens (see the hook row).
const full = bwrapArguments({ system, network: 'none', readable: [], writable: [], protected: [], files: new Map() });
const mounts = [...namespaces, '--unshare-net', ...system];
const layers: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['bwrap, a user namespace and `--ro-bind / /` (its floor)', ['--unshare-user', '--ro-bind', '/', '/']],
  ['+ pid, ipc, uts and cgroup namespaces', [...namespaces, '--ro-bind', '/', '/']],
  ['+ a network namespace (`network = "none"`)', [...namespaces, '--unshare-net', '--ro-bind', '/', '/']],
  [
    `the system read-only instead of / (${system.filter((arg) => arg.startsWith('--')).length} binds, links and covers)`,
    mounts,
  ],
  ['+ its own /proc', [...mounts, '--proc', '/proc']],
  ['+ a minimal /dev', [...mounts, '--proc', '/proc', '--dev', '/dev']],
  [
    '+ private /tmp, the working directory',
    [
      ...mounts,
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--tmpfs',
      '/tmp',
      '--bind',
      process.cwd(),
      process.cwd(),
      '--chdir',
      process.cwd(),
    ],
  ],
  ["the provider's full arguments (+ uid, hostname, --disable-userns, --die-with-parent, --new-session)", full],
];
// The shell every exec starts inside the sandbox to check its binds by device and inode before it
// becomes the hook: here checking /usr (bound read-only, so the same object inside as outside).
const usr = statSync('/usr');
const verify = ['sh', '-c', VERIFY_SCRIPT, 'hookline-verify', `${usr.dev}:${usr.ino}`, '/usr'];
const layerContenders: Contender[] = [
  { name: names.spawn, run: bareSpawn },
  ...layers.map(([name, args]) => ({ name, run: () => spawnExit0('bwrap', [...args, '--', 'sh', '-c', 'exit 0']) })),
  {
    name: '+ the shell that verifies the binds before it becomes the hook (one `sh`, one `stat`)',
    run: () => spawnExit0('bwrap', [...full, '--', ...verify, 'sh', '-c', 'exit 0']),
  },
  { name: names.hook, run: () => hook(bubblewrap) },
];
const layerSamples = await measureInterleaved(layerContenders, { rounds: ROUNDS, warmup: 5 });
await bubblewrap.close();
const bare = quantile(layerSamples.get(names.spawn)!, 0.5);
console.log(
  `\nwhere a bubblewrap hook's time goes — each row a Node spawn ending in \`sh -c 'exit 0'\`, load average ${loadavg()[0]!.toFixed(2)} at the end\n`,
);
console.log('| contender | median ms | × bare spawn | + ms over the row above |');
console.log('|---|---:|---:|---:|');
let previous = bare;
for (const { name } of layerContenders) {
  const value = quantile(layerSamples.get(name)!, 0.5);
  console.log(
    `| ${name} | ${value.toFixed(2)} | ${(value / bare).toFixed(2)} | ${name === names.spawn ? '' : (value - previous).toFixed(2)} |`,
  );
  previous = value;
}
