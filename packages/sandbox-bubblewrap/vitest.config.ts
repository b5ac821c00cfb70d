import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sandbox-bubblewrap',
    include: ['src/**/*.test.ts'],
    // The tests start real sandboxes, some with hundreds of processes: files one at a time on a small machine.
    fileParallelism: false,
    testTimeout: 30_000,
  },
});
