import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'runner-command',
    include: ['src/**/*.test.ts'],
    setupFiles: ['test-support/resident-spawner-setup.ts'],
    // The test files of one worker share its process (no fresh module graph per file): they keep no
    // state across files (each removes the variables and servers it made), and a fresh process per file
    // cost more CPU than many of the files' own tests. Run one file alone to rule out a neighbour.
    isolate: false,
    // Every test runs real processes; some wait out a kill grace of 2 s on purpose.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
