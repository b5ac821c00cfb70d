#!/usr/bin/env node
// Checked-in launcher for the compiled CLI in dist/. pnpm links a workspace package's bins during
// `pnpm install`, before anything is built, and skips a bin whose file does not exist yet — so the
// bin must be a file that is always there (the workaround pnpm itself uses).
import('../dist/bin.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    console.error(
      'hookline: @hookline/cli is not built yet; run `pnpm -F @hookline/cli... build` (or `pnpm start`) first.',
    );
    process.exit(1);
  }
  throw error;
});
