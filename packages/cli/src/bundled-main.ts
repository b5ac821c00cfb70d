// The bundled build's main module (scripts/bundle.ts writes dist/main.js from it; dist/bin.js imports
// it once the compile cache is on). Core is one file next to it, dist/core.js.
import { useBundledCore } from './use-bundled-core.ts';

useBundledCore(new URL('./core.js', import.meta.url).href);

export { main } from './main.ts';
