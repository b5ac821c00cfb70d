import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'runner-llm',
    include: ['src/**/*.test.ts'],
    // Real sockets on 127.0.0.1 and real processes; some tests wait out a hook's deadline on purpose.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
