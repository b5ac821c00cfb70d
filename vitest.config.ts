import { defineConfig } from 'vitest/config';

// One vitest project per package; `pnpm vitest` at the root runs them all.
export default defineConfig({
  test: {
    projects: ['packages/*'],
  },
});
