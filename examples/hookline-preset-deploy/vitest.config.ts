import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'hookline-preset-deploy',
    include: ['src/**/*.test.ts'],
  },
});
