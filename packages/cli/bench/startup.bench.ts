// Whole-process startup of `hookline emit` with one command hook, against `node -e 0` (the floor
// of any Node CLI) and against lefthook (a Go binary) running the same command as a git hook.
// Contenders run round-robin, so a busy machine slows them all alike; each figure is a median.
//
//   pnpm -F @hookline/cli bench            (build first: pnpm -F @hookline/cli... build)
//   RUNS=60 pnpm -F @hookline/cli bench
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env['RUNS'] ?? 40);
const WARMUP = 5;
const TARGET = 2.5;

const cli = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('build the CLI first: pnpm -F @hookline/cli... build');
  process.exit(1);
}
// lefthook's npm package ships the Go binary in a per-platform package next to it; run it directly.
const lefthookPackage = realpathSync(fileURLToPath(new URL('../node_modules/lefthook', import.meta.url)));
const lefthook = join(dirname(lefthookPackage), `lefthook-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'x64' ? 'x64' : process.arch}`, 'bin', 'lefthook');

// Everything happens in a scratch folder: its own hookline.toml, and a throwaway git repository
// with its own lefthook.yml, so nothing is ever written into this repository.
const scratch = mkdtempSync(join(tmpdir(), 'hookline-bench-'));
const COMMAND = 'true';
writeFileSync(join(scratch, 'hookline.toml'), `[[hooks]]\nname = "bench"\nevent = "stage_start"\ncommand = "${COMMAND}"\n`);
spawnSync('git', ['init', '-q', scratch], { stdio: 'ignore' });
writeFileSync(join(scratch, 'lefthook.yml'), `bench-hook:\n  commands:\n    bench:\n      run: "${COMMAND}"\n`);

interface Contender {
  readonly name: string;
  readonly argv: readonly string[];
  readonly times: number[];
}
const contenders: Contender[] = [
  { name: 'node -e 0', argv: [process.execPath, '-e', '0'], times: [] },
  { name: 'hookline emit (1 command hook)', argv: [process.execPath, cli, 'emit', 'stage_start', '--json'], times: [] },
  ...(existsSync(lefthook) ? [{ name: 'lefthook run (same command)', argv: [lefthook, 'run', 'bench-hook'], times: [] }] : []),
];
const env = { ...process.env, NO_COLOR: '1', LEFTHOOK_QUIET: 'meta,summary,success,execution' };

function once(contender: Contender): number {
  const started = performance.now();
  const result = spawnSync(contender.argv[0]!, contender.argv.slice(1), { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${contender.name} exited ${result.status}: ${result.stderr.toString()}`);
  return elapsed;
}

try {
  for (let round = 0; round < WARMUP; round++) for (const contender of contenders) once(contender);
  for (let round = 0; round < RUNS; round++) for (const contender of contenders) contender.times.push(once(contender));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const medians = new Map(contenders.map((contender) => [contender.name, median(contender.times)]));
console.log(`whole-process startup, median of ${RUNS} runs each (node ${process.version}, ${process.platform}-${process.arch})\n`);
for (const contender of contenders) console.log(`  ${contender.name.padEnd(32)} ${medians.get(contender.name)!.toFixed(1).padStart(7)} ms`);
const hookline = medians.get(contenders[1]!.name)!;
const node = medians.get(contenders[0]!.name)!;
const versusNode = hookline / node;
console.log(`\n  hookline / node -e 0    ${versusNode.toFixed(2)}×  (target ≤ ${TARGET}×: ${versusNode <= TARGET ? 'met' : 'missed'})`);
if (contenders[2] !== undefined) console.log(`  hookline / lefthook     ${(hookline / medians.get(contenders[2].name)!).toFixed(2)}×`);
else console.log('  lefthook: its platform binary is not installed here, so no comparison');
