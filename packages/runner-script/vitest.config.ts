import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'runner-script',
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
    // The test files of one worker share its process (no fresh module graph per file): they keep no
    // state across files (each removes the variables and servers it made), and a fresh process per file
    // cost more CPU than many of the files' own tests. Run one file alone to rule out a neighbour.
    isolate: false,
    // isolated-vm's README: Node ≥ 20 must run with --no-node-snapshot, or isolates that start from a
    // different snapshot than Node's own can crash the process. Worker threads cannot take that flag,
    // so tests run in child processes that start with it.
    pool: 'forks',
    // --expose-gc lets the soak test collect garbage before it compares memory.
    execArgv: ['--no-node-snapshot', '--expose-gc'],
    // Some tests wait out deadlines on purpose and one runs a thousand hooks.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
