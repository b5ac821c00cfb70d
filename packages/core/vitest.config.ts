import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'core',
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
    // The test files of one worker share its process (no fresh module graph per file): they keep no
    // state across files (each removes the variables and servers it made), and a fresh process per file
    // cost more CPU than many of the files' own tests. Run one file alone to rule out a neighbour.
    isolate: false,
    // Type tests (`*.test-d.ts`: `expectTypeOf` and `@ts-expect-error`) are compile-time assertions, and
    // `pnpm typecheck` compiles them (tsconfig.json takes all of src): a failing one fails it. Vitest's
    // typecheck mode would run the same whole-project tsc a second time in every `pnpm test`.
  },
});
