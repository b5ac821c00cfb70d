// One claimer of the chaos test, as its own process: claims entries from the journal at argv[2],
// "runs" each for a few milliseconds, logging start and end (with Date.now()) to the file at
// argv[3], and completes it; waits on NOTIFY when there is nothing to claim. Runs until killed.
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { postgresJournal } from '../src/postgres-journal.ts';

const [url, log, name] = process.argv.slice(2) as [string, string, string];
const journal = postgresJournal({ url, maxConnections: 2 });
const LEASE_MS = 3_000;
const WORK_MS = 100;

for (;;) {
  const entry = await journal.doClaim(name, LEASE_MS);
  if (entry === undefined) {
    await journal.doWaitForWork(500);
    continue;
  }
  appendFileSync(log, `start ${entry.id} ${name} ${Date.now()}\n`);
  await new Promise((resolve) => setTimeout(resolve, WORK_MS));
  appendFileSync(log, `end ${entry.id} ${name} ${Date.now()}\n`);
  appendFileSync(
    log,
    `${(await journal.doComplete(entry.id, name)) ? 'done' : 'lost'} ${entry.id} ${name} ${Date.now()}\n`,
  );
}
