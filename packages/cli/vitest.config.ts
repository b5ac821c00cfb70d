import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts'],
    // The tests spawn the built CLI as a real process; some wait out a hook's kill grace on purpose.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // Most of a test's time is spent waiting on the processes it spawned, so three files at once keep two
    // cores busy (the suite takes about 1.5 minutes instead of 4); each test has its own scratch folder.
    maxWorkers: 3,
  },
});
