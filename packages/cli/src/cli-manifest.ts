import { readFileSync } from 'node:fs';

/** What the CLI reads from its own package.json. */
export interface CliManifest {
  readonly version?: string;
  readonly engines?: { readonly node?: string };
}

/** This package's package.json, one folder above both src/ and dist/. */
export function cliManifest(): CliManifest {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as CliManifest;
}
