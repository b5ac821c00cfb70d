import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'hookline-runner-ntfy',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    // Type tests (`*.test-d.ts`: `expectTypeOf` and `@ts-expect-error`) are compile-time assertions that
    // `pnpm typecheck` compiles (tsconfig.json takes all of src): a failing one fails it.
  },
});
