// A host for the start-gate tests: runs `touch <marker>` as a durable hook's process would run, behind
// the start gate, with a journal that never answers; prints the process's pid (and with `spawner`,
// forks it from the resident spawner and prints that one's pid too), then waits to be killed.
import process from 'node:process';
import { residentSpawner, useResidentSpawner } from '../src/resident-spawner-switch.ts';
import { runProcess } from '../src/run-process.ts';

const marker = process.argv[2]!;
useResidentSpawner(process.argv[3] === 'spawner');
void runProcess(
  {
    command: `touch '${marker}'`,
    onStarted: (pid) => {
      const spawner = residentSpawner()?.pid;
      process.stdout.write(`started ${pid}${spawner === undefined ? '' : ` by ${spawner}`}\n`);
      return new Promise<boolean>(() => undefined);
    },
  },
  { environment: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, killGraceMs: 2_000, maxOutputBytes: 1024 },
);
setInterval(() => undefined, 1 << 30);
