// The SQLite journal on Deno, through its node:sqlite: the shared journal contract, and an engine
// that journals a durable hook and clears it.
import { createHookEngine, loadConfig } from '@hookline/core';
import { journalConformanceCases, scriptedRunner } from '@hookline/core/testing';
import { sqliteJournal } from '../../src/index.ts';
import { assertEquals } from '../../../core/runtime-tests/deno/assert.ts';

const scratch = await Deno.makeTempDir();
let count = 0;
for (const check of journalConformanceCases({
  ownPid: Deno.pid,
  create: (settings) => sqliteJournal({ path: `${scratch}/conformance-${count++}.db`, ...settings }),
})) {
  Deno.test(`sqlite ${check.name}`, check.run);
}

Deno.test('an engine journals a durable hook before emit returns and clears it once it ran', async () => {
  const runner = scriptedRunner();
  const journal = sqliteJournal({ path: `${scratch}/engine.db` });
  const config = loadConfig(
    [
      {
        text: '[[hooks]]\nname = "notify"\nevent = "stage_complete"\ntype = "scripted"\ndurable = true\ndelay_ms = 20\n',
        source: 'deno.toml',
      },
    ],
    { runners: [runner] },
  );
  const engine = createHookEngine({
    config,
    runners: [runner],
    journal,
    journalKey: crypto.getRandomValues(new Uint8Array(32)),
  });
  try {
    const outcome = await engine.emit('stage_complete', { run_id: 'r', workflow_name: 'w' });
    assertEquals(
      (await journal.list()).map((entry) => entry.hooks),
      [['notify']],
    );
    await outcome.settled;
    assertEquals(await journal.list(), []);
  } finally {
    await engine.close();
  }
});

Deno.test('cleanup', async () => {
  await Deno.remove(scratch, { recursive: true });
});
