// The bundled build's main module (scripts/bundle.ts writes dist/main.js from it; dist/bin.js imports
// it once the compile cache is on). Core is one file next to it, dist/core.js.
import module from 'node:module';

// Plugins loaded at run time (runner-command, runner-http, a project's own runner) import
// `@hookline/core` themselves. They must get the bundle's copy — one engine, one set of error
// classes and settings tables — and not load the ≈ 100 modules of the installed package again.
const bundledCore = new URL('./core.js', import.meta.url).href;
// registerHooks is there from Node 22.15; bin.ts has turned older versions away.
module.registerHooks?.({
  resolve: (specifier, context, nextResolve) => (specifier === '@hookline/core' ? { url: bundledCore, shortCircuit: true } : nextResolve(specifier, context)),
});

export { main } from './main.ts';
