// The PostgreSQL journal on Deno, through the same client: the shared journal contract against the
// server that `node scripts/postgres-test-server.ts` started for this run (HOOKLINE_TEST_POSTGRES_URL).
import { journalConformanceCases } from '@hookline/core/testing';
import { postgresJournal } from '../../src/index.ts';

const url = Deno.env.get('HOOKLINE_TEST_POSTGRES_URL');
if (url === undefined) {
  console.warn('HOOKLINE_TEST_POSTGRES_URL is not set (no PostgreSQL server), so the Deno journal tests are skipped.');
} else {
  let count = 0;
  for (const check of journalConformanceCases({
    create: (settings) => postgresJournal({ url, schema: 'deno', tablePrefix: `case_${count++}_`, ...settings }),
  })) {
    // The client keeps timers for idle connections; the journal's doClose ends them.
    Deno.test({ name: `postgres ${check.name}`, fn: check.run, sanitizeOps: false, sanitizeResources: false });
  }
}
