/**
 * What the resident spawner buys a process that holds a lot of memory (a resident host such as
 * `hookline serve`): `runProcess` of `sh -c true` with stdin, spawned in-process and through the
 * spawner, against a bare `spawn` of the same command (stdio ignored), all from a process that
 * holds BALLAST_MIB (default 200) MiB of live objects — fork copies its page tables, so the bare
 * spawn and the in-process one pay for that memory and the spawner does not. Interleaved rounds;
 * medians, and the CPU time per call of this process and of the spawner (/proc, Linux).
 *
 *   pnpm -F @hookline/runner-command bench:spawner
 *   BALLAST_MIB=0 ROUNDS=500 pnpm -F @hookline/runner-command bench:spawner
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import process from 'node:process';
import { measureInterleaved, quantile } from '../../../scripts/bench-stats.ts';
import { processCpuMs } from '../../../scripts/process-cpu.ts';
import { residentSpawner, useResidentSpawner } from '../src/resident-spawner-switch.ts';
import { runProcess } from '../src/run-process.ts';

const ROUNDS = Number(process.env['ROUNDS'] ?? 300);
const BALLAST_MIB = Number(process.env['BALLAST_MIB'] ?? 200);

// Live objects the collector cannot free, touched so that they are resident: about 1 MiB per 8 000.
const ballast = Array.from({ length: BALLAST_MIB * 8_000 }, (_, index) => ({ index, text: `ballast ${index}` }));
const settings = {
  environment: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  killGraceMs: 2_000,
  maxOutputBytes: 1 << 20,
};
const stdin = JSON.stringify({ run_id: 'bench-run', workflow_name: 'bench', node_id: 'build', event: 'stage_start' });

const bare = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true'], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
const through = (spawner: boolean) => async (): Promise<void> => {
  useResidentSpawner(spawner);
  const result = await runProcess({ command: 'true', stdin }, settings);
  if (result.exitCode !== 0) throw new RangeError(`sh -c true exited ${result.exitCode}`);
};

/** CPU time (ms) of a process, from /proc; NaN where there is none to read. */
function processCpu(pid: number): number {
  return existsSync(`/proc/${pid}/stat`) ? processCpuMs(pid) : Number.NaN;
}

const contenders = [
  { name: 'bare spawn', run: bare },
  { name: 'runProcess, in-process', run: through(false) },
  { name: 'runProcess, resident spawner', run: through(true) },
];
const samples = await measureInterleaved(contenders, { rounds: ROUNDS, warmup: 20 });
useResidentSpawner(true);
const spawnerPid = residentSpawner()!.pid!;
// CPU per call, each contender alone (CPU time does not drift with the load the way latency does).
const cpu: string[] = [];
for (const contender of contenders) {
  const self = process.cpuUsage();
  const spawnerBefore = processCpu(spawnerPid);
  for (let index = 0; index < ROUNDS; index++) await contender.run();
  const used = process.cpuUsage(self);
  const spawnerMs = (processCpu(spawnerPid) - spawnerBefore) / ROUNDS;
  const selfMs = (used.user + used.system) / 1000 / ROUNDS;
  cpu.push(
    `${selfMs.toFixed(3)} ms here${contender.name.endsWith('spawner') ? `, ${spawnerMs.toFixed(3)} ms in the spawner` : ''}`,
  );
}

const median = (name: string): number => quantile(samples.get(name)!, 0.5);
const base = median('bare spawn');
console.log(
  `\n${ROUNDS} interleaved rounds, ${BALLAST_MIB} MiB of ballast (rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB), load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}\n`,
);
console.log('| `sh -c true` | median | vs bare spawn | CPU per call |');
console.log('|---|---|---|---|');
contenders.forEach((contender, index) => {
  const value = median(contender.name);
  console.log(`| ${contender.name} | ${value.toFixed(3)} ms | ${(value / base).toFixed(2)}× | ${cpu[index]} |`);
});
void ballast.length;
