// One runner may serve several engines: closing one must not end the others' host hooks.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { commandRunner } from './command-runner.ts';
import { baseContext, quote, startEngine } from '../test-support/hook-harness.ts';
import { waitFor } from '../test-support/processes.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();

test('closing one engine leaves a host hook of another engine on the same runner running, with its context file', async () => {
  const runner = commandRunner();
  const record = join(scratch(), 'path');
  const copy = join(scratch(), 'copy');
  const first = startEngine([{ command: 'exit 0' }], { runner });
  const second = startEngine(
    [{ command: `echo "$ARC_HOOK_CONTEXT" > ${quote(record)}; sleep 1; cat "$ARC_HOOK_CONTEXT" > ${quote(copy)}` }],
    { runner },
  );
  const pending = second.emit('stage_start', baseContext);
  expect(await waitFor(() => existsSync(record) && readFileSync(record, 'utf8').endsWith('\n'), 5_000)).toBe(true);

  await (
    await first.emit('stage_start', baseContext)
  ).settled;
  await first.close();

  const outcome = await pending;
  expect(outcome.hooks[0]?.status).toBe('ok');
  expect(outcome.hooks[0]?.decision).toEqual({ decision: 'proceed' });
  expect(JSON.parse(readFileSync(copy, 'utf8'))).toEqual({ event: 'stage_start', ...baseContext });
  const directory = dirname(readFileSync(record, 'utf8').trim());
  // The runner was asked to close while the hook ran: its directory goes once the last user is done.
  expect(await waitFor(() => !existsSync(directory), 2_000)).toBe(true);
  await second.close();
});
