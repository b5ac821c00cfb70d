import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'serve',
    include: ['src/**/*.test.ts'],
    // The tests start real daemons (Node processes) and talk to them over TCP and Unix sockets.
    testTimeout: 60_000,
  },
});
