import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'core',
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
    // Type tests (`*.test-d.ts`, `expectTypeOf` and `@ts-expect-error`) run with every `vitest run`.
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
