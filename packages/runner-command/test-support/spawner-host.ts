// A host for resident-spawner.test.ts: switches the spawner on, runs a process through it and prints
// the spawner's pid. `exit`: then ends on its own (nothing may keep it alive). `hang`: starts a
// long process through the spawner, prints its group, and waits to be killed.
import process from 'node:process';
import { residentSpawner, useResidentSpawner } from '../src/resident-spawner-switch.ts';
import { runProcess } from '../src/run-process.ts';

const settings = {
  environment: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  killGraceMs: 2_000,
  maxOutputBytes: 1024,
};
useResidentSpawner();
await runProcess({ command: 'true' }, settings);
process.stdout.write(`spawner ${residentSpawner()?.pid}\n`);
if (process.argv[2] === 'hang') {
  void runProcess(
    {
      command: 'sleep 300',
      onStarted: async (pid) => {
        process.stdout.write(`group ${pid}\n`);
        return true;
      },
    },
    settings,
  );
  setInterval(() => undefined, 1 << 30);
}
