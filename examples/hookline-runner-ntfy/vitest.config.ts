import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'hookline-runner-ntfy',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
