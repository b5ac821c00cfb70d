import module from 'node:module';

/** The entries of `@hookline/core` the bundle's copy exports: the host entry and the plugin entry. */
const BUNDLED_ENTRIES = new Set(['@hookline/core', '@hookline/core/plugin']);

/**
 * Makes every later `import '@hookline/core'` (or `'@hookline/core/plugin'`) get the bundle's copy,
 * dist/core.js next to the module that calls this. Plugins loaded at run time (runner-command,
 * runner-http, runner-script, a project's own runner) import core themselves: they must share the
 * CLI's one engine, error classes and settings tables, and not load the ≈ 100 modules of the
 * installed package again.
 */
export function useBundledCore(bundledCore: string): void {
  // registerHooks is there from Node 22.15; bin.ts has turned older versions away.
  module.registerHooks?.({
    resolve: (specifier, context, nextResolve) =>
      BUNDLED_ENTRIES.has(specifier) ? { url: bundledCore, shortCircuit: true } : nextResolve(specifier, context),
  });
}
