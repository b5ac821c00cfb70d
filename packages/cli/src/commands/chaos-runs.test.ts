import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CHAOS_HOOK, checkChaosRuns } from '../../test-support/chaos-runs.ts';
import { makeScratch, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

test('the chaos checker finds lost tasks, counts duplicates and reports runs that overlapped', () => {
  const log = [
    'start a 1 100',
    'end a 1 200',
    'start a 2 300',
    'end a 2 400',
    'start b 3 100',
    'start b 4 150',
    'end b 4 250',
    'end b 3 300',
    'start c 5 100',
  ].join('\n');
  expect(checkChaosRuns(['a', 'b', 'c', 'd'], log, 'alive e 9\n')).toEqual({
    lost: ['c', 'd'],
    duplicates: 2,
    overlaps: ['alive e 9', 'b 3 4'],
  });
  expect(checkChaosRuns(['a'], 'start a 1 100\nend a 1 200\n', '')).toEqual({ lost: [], duplicates: 0, overlaps: [] });
});

test('the chaos hook logs its run and sees an earlier run of its task still alive', () => {
  const sleeper = execFileSync('sh', ['-c', 'sleep 5 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' }).trim();
  try {
    const run = () =>
      execFileSync('sh', ['-c', CHAOS_HOOK], { cwd: scratch.path, env: { ...process.env, ARC_TASK: 't1' } });
    run();
    scratch.write('pids/t1', `${sleeper}\n${readFileSync(join(scratch.path, 'pids', 't1'), 'utf8')}`);
    run();
    const runs = readFileSync(join(scratch.path, 'runs.log'), 'utf8');
    expect(checkChaosRuns(['t1'], runs, readFileSync(join(scratch.path, 'overlaps.log'), 'utf8'))).toEqual({
      lost: [],
      duplicates: 1,
      overlaps: [`alive t1 ${sleeper}`],
    });
  } finally {
    process.kill(Number(sleeper), 'SIGKILL');
  }
});
