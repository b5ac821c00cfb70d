import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'example-workflow-host',
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
