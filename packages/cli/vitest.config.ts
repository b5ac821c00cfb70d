import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts'],
    // The tests spawn the built CLI as a real process; some wait out a hook's kill grace on purpose.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
