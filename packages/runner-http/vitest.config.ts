import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'runner-http',
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
    // The test files of one worker share its process (no fresh module graph per file): they keep no
    // state across files (each removes the variables and servers it made), and a fresh process per file
    // cost more CPU than many of the files' own tests. Run one file alone to rule out a neighbour.
    isolate: false,
    // Real servers on 127.0.0.1; the load tests send a thousand requests and some tests wait out a deadline.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
