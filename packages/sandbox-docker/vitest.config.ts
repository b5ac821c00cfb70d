import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sandbox-docker',
    include: ['src/**/*.test.ts'],
    // The tests drive a real Docker engine: files one at a time, so the containers of one file do not
    // starve another's on a small machine, and with room for a cold container start under load.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
