// A host process for the crash tests: emits task points into an engine whose durable hooks are
// journaled in SQLite, or resumes such a journal. The tests kill it with SIGKILL and look at what
// survived. Run as `node test-support/durable-child.ts '<json order>'`.
import { join } from 'node:path';
import process from 'node:process';
import { createHookEngine, loadConfig } from '@hookline/core';
import { commandRunner } from '@hookline/runner-command';
import { sqliteJournal } from '../src/index.ts';
import { TEST_JOURNAL_KEY } from './test-key.ts';

/** What the child is told to do. */
export interface ChildOrder {
  readonly mode: 'emit' | 'resume';
  /** The journal file. */
  readonly journal: string;
  /** A `preset = "task"` config. */
  readonly config: string;
  /** The hooks' working directory (files they write land there), also the log root's parent. */
  readonly cwd: string;
  /** Tasks to emit `after_merge` for, in `emit` mode. */
  readonly tasks?: readonly string[];
  readonly concurrency?: number;
  readonly leaseMs?: number;
}

const order = JSON.parse(process.argv[2] ?? '{}') as ChildOrder;
const runners = [commandRunner({ logRoot: join(order.cwd, 'runs') })];
const config = loadConfig([{ text: order.config, source: 'child.toml' }], { runners });
const engine = createHookEngine({
  config,
  runners,
  journal: sqliteJournal({ path: order.journal }),
  journalKey: TEST_JOURNAL_KEY,
  concurrency: order.concurrency ?? 8,
  ...(order.leaseMs === undefined ? {} : { journalLeaseMs: order.leaseMs }),
});
if (order.mode === 'emit') {
  const settled: Array<Promise<unknown>> = [];
  for (const task of order.tasks ?? [])
    settled.push((await engine.emit('after_merge', { task, cwd: order.cwd })).settled);
  process.stdout.write(`journaled ${settled.length}\n`);
  await Promise.all(settled);
  process.stdout.write('settled\n');
} else {
  const report = await engine.resume();
  process.stdout.write(`${JSON.stringify({ ran: report.ran.length, pending: report.pending.length })}\n`);
}
await engine.close();
