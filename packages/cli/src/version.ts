import { cliManifest } from './cli-manifest.ts';

/** This package's version, read from its package.json. */
export function cliVersion(): string {
  return cliManifest().version ?? 'unknown';
}
