import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'journal-postgres',
    include: ['src/**/*.test.ts'],
    // One throwaway PostgreSQL server for the run (scripts/postgres-test-server.ts); each test file
    // works in databases or tables of its own.
    globalSetup: ['../../scripts/postgres-test-server.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
