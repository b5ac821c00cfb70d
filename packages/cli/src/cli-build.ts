import { readFileSync } from 'node:fs';

/**
 * This build of the CLI as the script host shares it: the bundle's build id (written by
 * scripts/bundle.ts from the bundle's contents) and its copy of core, dist/core.js. Undefined when the
 * CLI runs from its sources (no build id): script hooks then never go to a host.
 */
export function cliBuild(): { readonly id: string; readonly coreUrl: string } | undefined {
  try {
    return {
      id: readFileSync(new URL('./build-id', import.meta.url), 'utf8').trim(),
      coreUrl: new URL('./core.js', import.meta.url).href,
    };
  } catch {
    return undefined;
  }
}
