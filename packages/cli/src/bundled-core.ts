// The bundled build's copy of `@hookline/core` as one module (dist/core.js), which bundled-bin.ts
// hands to every plugin that imports the package.
export * from '@hookline/core';
// The plugin entry's symbols too (those in both entries are the same bindings): plugins import
// `@hookline/core/plugin`, and use-bundled-core.ts hands them this module for it as well.
export * from '@hookline/core/plugin';
