import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'hookline-runner-ntfy',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    // Type tests (`*.test-d.ts`, `expectTypeOf` and `@ts-expect-error`) run with every `vitest run`.
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
