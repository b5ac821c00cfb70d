import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'runner-http',
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
    // Real servers on 127.0.0.1; the load tests send a thousand requests and some tests wait out a deadline.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
