import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'journal-postgres',
    include: ['src/**/*.test.ts'],
    // The test files of one worker share its process (no fresh module graph per file): they keep no
    // state across files (each removes the variables and servers it made), and a fresh process per file
    // cost more CPU than many of the files' own tests. Run one file alone to rule out a neighbour.
    isolate: false,
    // One throwaway PostgreSQL server for the run (scripts/postgres-test-server.ts); each test file
    // works in databases or tables of its own.
    globalSetup: ['../../scripts/postgres-test-server.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
