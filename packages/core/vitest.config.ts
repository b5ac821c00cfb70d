import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'core',
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
    // Type tests (`*.test-d.ts`: `expectTypeOf` and `@ts-expect-error`) are compile-time assertions, and
    // `pnpm typecheck` compiles them (tsconfig.json takes all of src): a failing one fails it. Vitest's
    // typecheck mode would run the same whole-project tsc a second time in every `pnpm test`.
  },
});
