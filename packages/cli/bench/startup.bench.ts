// Whole-process startup of `hookline emit`, each figure a median over interleaved rounds (a busy
// machine slows every contender alike), printed with the ratios against the baseline measured in
// the same run and the load average:
//   - one command hook against `node -e 0` (the floor of any Node CLI), target ≤ 2.5×;
//   - one script hook against one command hook, target ≤ 1.2×. A script hook needs Node started
//     with --no-node-snapshot (isolated-vm); the CLI sends it to its resident script host, which
//     was started with the flag. The target row is the warm host (started by the warm-up rounds, as
//     after any earlier emit); the cold row is a first emit, which starts a host (each one in a
//     folder of its own, with HOOKLINE_SCRIPT_HOST_IDLE_MS=0 so it exits as soon as the emit is
//     done); the row with HOOKLINE_SCRIPT_HOST=off is the CLI restarting itself with the flag (what
//     every script emit did before the host), and NODE_OPTIONS=--no-node-snapshot runs the hook in
//     the one process started with the flag;
//   - lefthook (a Go binary) running the same command as a git hook, for scale;
//   - the CPU time of `node -e 0` and of the command emit processes themselves, which depends much
//     less on the machine's load than their wall time (a second pair of contenders, same rounds).
//
//   pnpm -F @hookline/cli bench            (build first: pnpm -F @hookline/cli... build)
//   RUNS=60 pnpm -F @hookline/cli bench
//   OTHER_CLI=/path/to/another/checkout/packages/cli/dist/bin.js pnpm -F @hookline/cli bench
//                                          (adds that build's emit, e.g. main's, to the same run)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { measureInterleaved, quantile, type Contender } from '../../../scripts/bench-stats.ts';

const RUNS = Number(process.env['RUNS'] ?? 40);
const WARMUP = 5;
const START_TARGET = 2.5;
const SCRIPT_TARGET = 1.2;

const cli = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('build the CLI first: pnpm -F @hookline/cli... build');
  process.exit(1);
}
const otherCli = process.env['OTHER_CLI'];
const scriptRunnerInstalled = existsSync(
  fileURLToPath(new URL('../node_modules/@hookline/runner-script/package.json', import.meta.url)),
);
// lefthook's npm package ships the Go binary in a per-platform package next to it; run it directly.
const lefthookPackage = realpathSync(fileURLToPath(new URL('../node_modules/lefthook', import.meta.url)));
const lefthook = join(
  dirname(lefthookPackage),
  `lefthook-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'x64' ? 'x64' : process.arch}`,
  'bin',
  'lefthook',
);

// Everything happens in a scratch folder: its own config files, and a throwaway git repository with
// its own lefthook.yml, so nothing is ever written into this repository.
const scratch = mkdtempSync(join(tmpdir(), 'hookline-bench-'));
const COMMAND = 'true';
const commandConfig = join(scratch, 'command.toml');
const scriptConfig = join(scratch, 'script.toml');
writeFileSync(commandConfig, `[[hooks]]\nname = "bench"\nevent = "stage_start"\ncommand = "${COMMAND}"\n`);
// A deadline far off: a loaded machine must not turn a slow first isolate into a blocked (exit 2) emit.
writeFileSync(
  scriptConfig,
  '[[hooks]]\nname = "bench"\nevent = "stage_start"\ntype = "script"\nscript = "return true"\ntimeout_ms = 60000\n',
);
spawnSync('git', ['init', '-q', scratch], { stdio: 'ignore' });
writeFileSync(join(scratch, 'lefthook.yml'), `bench-hook:\n  commands:\n    bench:\n      run: "${COMMAND}"\n`);

// CPU time of each Node process itself (user + system), which a busy machine stretches far less than
// the wall time: a preloaded CommonJS file (cheap, unlike an ES module --import) writes
// process.cpuUsage() to stderr as the process exits. The hook's own process is not counted.
const cpuReporter = join(scratch, 'report-cpu.cjs');
writeFileSync(
  cpuReporter,
  "process.on('exit', () => { const { user, system } = process.cpuUsage(); process.stderr.write(`\\nhookline-bench-cpu ${(user + system) / 1000}\\n`); });\n",
);
const CPU_LINE = /\nhookline-bench-cpu ([\d.]+)\n/;
const cpuSamples = new Map<string, number[]>();

const { NODE_OPTIONS: _inherited, ...environment } = process.env;
const env = {
  ...environment,
  NO_COLOR: '1',
  XDG_CONFIG_HOME: join(scratch, '.xdg'),
  LEFTHOOK_QUIET: 'meta,summary,success,execution',
};

/**
 * A contender that runs `argv` to its end in the scratch folder and checks it succeeded. With `cpu`
 * (a Node command line), the process's own CPU time is recorded too, under `name`.
 */
function processContender(
  name: string,
  argv: readonly string[],
  extraEnv: Readonly<Record<string, string>> = {},
  cpu = false,
): Contender {
  const command = cpu ? [argv[0]!, '-r', cpuReporter, ...argv.slice(1)] : argv;
  return {
    name,
    run: () =>
      new Promise((resolve, reject) => {
        const child = spawn(command[0]!, command.slice(1), {
          cwd: scratch,
          env: { ...env, ...extraEnv },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.once('error', reject);
        child.once('close', (code) => {
          if (code !== 0) return reject(new Error(`${name} exited ${code}: ${stderr}`));
          const used = CPU_LINE.exec(stderr);
          if (cpu && used === null) return reject(new Error(`${name} did not report its CPU time: ${stderr}`));
          if (used !== null) cpuSamples.set(name, [...(cpuSamples.get(name) ?? []), Number(used[1])]);
          resolve();
        });
      }),
  };
}

const NODE = 'node -e 0';
const COMMAND_EMIT = 'hookline emit, 1 command hook';
const SCRIPT_EMIT = 'hookline emit, 1 script hook, warm script host';
const SCRIPT_EMIT_COLD = '  … first emit: starts the script host';
const SCRIPT_EMIT_RESTART = '  … HOOKLINE_SCRIPT_HOST=off: restart with --no-node-snapshot';
const SCRIPT_EMIT_FLAGGED = '  … NODE_OPTIONS=--no-node-snapshot: in the one process';
// The warm host lives for the whole run; each cold emit starts one that exits when the emit is done.
const warmHosts = join(scratch, 'warm-hosts');
let coldRuns = 0;
const coldEmit: Contender = {
  name: SCRIPT_EMIT_COLD,
  run: () =>
    processContender(SCRIPT_EMIT_COLD, emit(scriptConfig), {
      HOOKLINE_SCRIPT_HOST_DIR: join(scratch, `cold-hosts-${coldRuns++}`),
      HOOKLINE_SCRIPT_HOST_IDLE_MS: '0',
    }).run(),
};
const OTHER_EMIT = 'OTHER_CLI emit, 1 command hook';
const LEFTHOOK = 'lefthook run (same command)';
const emit = (config: string): string[] => [process.execPath, cli, 'emit', 'stage_start', '--json', '--config', config];
const NODE_CPU = 'node -e 0 (CPU time)';
const COMMAND_EMIT_CPU = 'hookline emit, 1 command hook (CPU time)';
const OTHER_EMIT_CPU = 'OTHER_CLI emit, 1 command hook (CPU time)';
const contenders: Contender[] = [
  processContender(NODE, [process.execPath, '-e', '0']),
  processContender(COMMAND_EMIT, emit(commandConfig)),
  ...(otherCli === undefined
    ? []
    : [processContender(OTHER_EMIT, [process.execPath, otherCli, ...emit(commandConfig).slice(2)])]),
  processContender(NODE_CPU, [process.execPath, '-e', '0'], {}, true),
  processContender(COMMAND_EMIT_CPU, emit(commandConfig), {}, true),
  ...(otherCli === undefined
    ? []
    : [processContender(OTHER_EMIT_CPU, [process.execPath, otherCli, ...emit(commandConfig).slice(2)], {}, true)]),
  ...(scriptRunnerInstalled
    ? [
        processContender(SCRIPT_EMIT, emit(scriptConfig), { HOOKLINE_SCRIPT_HOST_DIR: warmHosts }),
        coldEmit,
        processContender(SCRIPT_EMIT_RESTART, emit(scriptConfig), { HOOKLINE_SCRIPT_HOST: 'off' }),
        processContender(SCRIPT_EMIT_FLAGGED, emit(scriptConfig), { NODE_OPTIONS: '--no-node-snapshot' }),
      ]
    : []),
  ...(existsSync(lefthook) ? [processContender(LEFTHOOK, [lefthook, 'run', 'bench-hook'])] : []),
];

let samples;
try {
  samples = await measureInterleaved(contenders, { rounds: RUNS, warmup: WARMUP });
} finally {
  stopHosts(warmHosts);
  rmSync(scratch, { recursive: true, force: true });
}

/** Ends the script host a folder's pid file names (the warm one outlives the bench otherwise, until idle). */
function stopHosts(folder: string): void {
  for (const file of existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.pid')) : []) {
    try {
      process.kill(Number(readFileSync(join(folder, file), 'utf8')), 'SIGTERM');
    } catch {
      // Gone already.
    }
  }
}

const median = (name: string): number => quantile(samples.get(name)!, 0.5);
const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(' ');
console.log(
  `whole-process startup, median of ${RUNS} interleaved runs each (node ${process.version}, ${process.platform}-${process.arch}, ${availableParallelism()} CPUs, load average ${load})`,
);
if (otherCli !== undefined) console.log(`OTHER_CLI = ${otherCli}`);
console.log('');
console.log('| what | median | ratio | against |');
console.log('|---|---|---|---|');
const row = (name: string, baseline: string): void =>
  console.log(
    `| ${name.trim()} | ${median(name).toFixed(1)} ms | ${(median(name) / median(baseline)).toFixed(2)}× | ${baseline} |`,
  );
row(NODE, NODE);
row(COMMAND_EMIT, NODE);
if (otherCli !== undefined) {
  row(OTHER_EMIT, NODE);
  row(COMMAND_EMIT, OTHER_EMIT);
}
if (scriptRunnerInstalled) {
  row(SCRIPT_EMIT, COMMAND_EMIT);
  row(SCRIPT_EMIT_COLD, COMMAND_EMIT);
  row(SCRIPT_EMIT_RESTART, COMMAND_EMIT);
  row(SCRIPT_EMIT_FLAGGED, COMMAND_EMIT);
}
if (existsSync(lefthook)) row(COMMAND_EMIT, LEFTHOOK);

// The command emit and `node -e 0` again, as their own contenders in the same rounds, each started with
// the CPU reporter preloaded: their own CPU time.
const cpuMedian = (name: string): number => quantile(cpuSamples.get(name)!, 0.5);
console.log('\n| CPU time of the process itself | median | ratio | against |');
console.log('|---|---|---|---|');
const cpuRow = (name: string, baseline: string): void =>
  console.log(
    `| ${name} | ${cpuMedian(name).toFixed(1)} ms | ${(cpuMedian(name) / cpuMedian(baseline)).toFixed(2)}× | ${baseline} |`,
  );
cpuRow(NODE_CPU, NODE_CPU);
cpuRow(COMMAND_EMIT_CPU, NODE_CPU);
if (otherCli !== undefined) {
  cpuRow(OTHER_EMIT_CPU, NODE_CPU);
  cpuRow(COMMAND_EMIT_CPU, OTHER_EMIT_CPU);
}

const verdict = (ratio: number, target: number): string =>
  `${ratio.toFixed(2)}× (target ≤ ${target}×: ${ratio <= target ? 'met' : `missed by ${(ratio - target).toFixed(2)}×`})`;
console.log(`\n  ${COMMAND_EMIT} / ${NODE}: ${verdict(median(COMMAND_EMIT) / median(NODE), START_TARGET)}`);
console.log(
  `  … in CPU time of the process: ${verdict(cpuMedian(COMMAND_EMIT_CPU) / cpuMedian(NODE_CPU), START_TARGET)}`,
);
if (scriptRunnerInstalled)
  console.log(
    `  ${SCRIPT_EMIT} / ${COMMAND_EMIT}: ${verdict(median(SCRIPT_EMIT) / median(COMMAND_EMIT), SCRIPT_TARGET)}`,
  );
else console.log('  script hooks: @hookline/runner-script is not installed here, so no script rows');
console.log(`  load average at the end: ${load}`);
