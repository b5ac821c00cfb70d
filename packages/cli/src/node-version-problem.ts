import process from 'node:process';
import { cliManifest } from './cli-manifest.ts';

/**
 * What `hookline` says, in one line, when the Node running it is older than its package's
 * `engines.node` (a `>=X.Y.Z` range): undefined when the version is fine. It is the first thing the
 * executable does, so it must itself run on any old Node: only `node:` builtins, nothing newer than
 * ES2020 at run time. Without it, an old Node fails deep inside a dependency (undici, isolated-vm).
 */
export function nodeVersionProblem(found: string = process.versions.node): string | undefined {
  const needed = requiredNodeVersion();
  if (needed === undefined || compareVersions(found, needed) >= 0) return undefined;
  return `hookline needs Node.js ${needed} or newer, but this is Node.js ${found} (${process.execPath}): install a newer Node.js and run it again.`;
}

/** The lowest version the package's `engines.node` allows. */
function requiredNodeVersion(): string | undefined {
  return /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(cliManifest().engines?.node?.trim() ?? '')?.[1];
}

function compareVersions(left: string, right: string): number {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
