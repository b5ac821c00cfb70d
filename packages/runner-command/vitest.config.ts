import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'runner-command',
    include: ['src/**/*.test.ts'],
    // Every test runs real processes; some wait out a kill grace of 2 s on purpose.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
