import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'hookline-runner-ntfy',
    include: ['src/**/*.test.ts'],
    // The test files of one worker share its process (no fresh module graph per file): they keep no
    // state across files (each removes the variables and servers it made), and a fresh process per file
    // cost more CPU than many of the files' own tests. Run one file alone to rule out a neighbour.
    isolate: false,
    testTimeout: 20_000,
    // Type tests (`*.test-d.ts`: `expectTypeOf` and `@ts-expect-error`) are compile-time assertions that
    // `pnpm typecheck` compiles (tsconfig.json takes all of src): a failing one fails it.
  },
});
