import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'docs',
    include: ['src/**/*.test.ts'],
    // Each snippet is checked by a real `hookline` process.
    testTimeout: 60_000,
    maxConcurrency: 4,
  },
});
