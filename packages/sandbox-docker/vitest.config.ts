import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sandbox-docker',
    include: ['src/**/*.test.ts'],
    // The test files of one worker share its process (no fresh module graph per file): they keep no
    // state across files (each removes the variables and servers it made), and a fresh process per file
    // cost more CPU than many of the files' own tests. Run one file alone to rule out a neighbour.
    isolate: false,
    // The tests drive a real Docker engine: files one at a time, so the containers of one file do not
    // starve another's on a small machine, and with room for a cold container start under load.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
