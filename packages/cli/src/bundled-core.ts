// The bundled build's copy of `@hookline/core` as one module (dist/core.js), which bundled-bin.ts
// hands to every plugin that imports the package.
export * from '@hookline/core';
