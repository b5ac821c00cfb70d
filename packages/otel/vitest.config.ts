import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'otel',
    include: ['src/**/*.test.ts'],
    // The propagation tests run real command hooks and a real HTTP server.
    testTimeout: 30_000,
  },
});
