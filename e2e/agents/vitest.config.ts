import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e-agents',
    include: ['src/**/*.test.ts'],
    // Each test drives a real agent binary, which spawns the real hookline CLI per hook event.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
