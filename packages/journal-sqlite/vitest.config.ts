import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'journal-sqlite',
    include: ['src/**/*.test.ts'],
    // The crash tests start, kill and resume real processes.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
