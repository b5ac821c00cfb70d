import { defineProject } from 'vitest/config';

// The repository's own checks (`pnpm test:repo`, part of `pnpm test`): the layering of the packages,
// import cycles (workspace/), and the committed API reports (api-report/, after `pnpm build`).
export default defineProject({
  test: {
    name: 'repo',
    include: ['scripts/workspace/**/*.test.ts', 'scripts/api-report/**/*.test.ts'],
  },
});
