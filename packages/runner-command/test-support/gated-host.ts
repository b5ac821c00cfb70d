// A host for start-gate.test.ts: runs `touch <marker>` as a durable hook's process would run, behind
// the start gate, with a journal that never answers; prints the process's pid, then waits to be killed.
import process from 'node:process';
import { runProcess } from '../src/run-process.ts';

const marker = process.argv[2]!;
void runProcess(
  {
    command: `touch '${marker}'`,
    onStarted: (pid) => {
      process.stdout.write(`started ${pid}\n`);
      return new Promise<boolean>(() => undefined);
    },
  },
  { environment: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, killGraceMs: 2_000, maxOutputBytes: 1024 },
);
setInterval(() => undefined, 1 << 30);
