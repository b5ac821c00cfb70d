import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where a specifier led: a module's file URL, or why there is none. */
export type Resolution =
  { readonly found: true; readonly url: string } | { readonly found: false; readonly reason: string };

// The conditions Node's ESM loader matches for `import` (SPEC'd by Node's resolution algorithm);
// `require` is deliberately absent, which is why createRequire().resolve is wrong for import-only packages.
const CONDITIONS = new Set(['node', 'import', 'module-sync', 'default']);

/**
 * Resolves `specifier` the way `import` would from a module in `directory`: bare package names walk
 * `node_modules` folders upwards and honour `exports` (with the `import`/`node`/`default`
 * conditions and `*` patterns) or else `main`; relative and absolute paths resolve against
 * `directory`. Node offers this only for the importing module's own location (`import.meta.resolve`
 * takes no parent without a flag), and plugins must resolve from their config file's folder.
 */
export function resolveModule(specifier: string, directory: string): Resolution {
  if (specifier.startsWith('file:')) return resolvePath(fileURLToPath(specifier), specifier);
  if (specifier.startsWith('./') || specifier.startsWith('../') || isAbsolute(specifier))
    return resolvePath(resolve(directory, specifier), specifier);
  const match = /^((?:@[^/]+\/)?[^/@][^/]*)(\/.*)?$/.exec(specifier);
  if (match === null) return { found: false, reason: `"${specifier}" is not a valid package name` };
  const name = match[1]!;
  const subpath = match[2] === undefined ? '.' : `.${match[2]}`;
  for (let folder = directory; ; folder = dirname(folder)) {
    if (basename(folder) !== 'node_modules') {
      const packageFolder = join(folder, 'node_modules', name);
      if (existsSync(join(packageFolder, 'package.json'))) return resolveInPackage(packageFolder, subpath, specifier);
    }
    if (dirname(folder) === folder) break;
  }
  return { found: false, reason: `cannot find package "${name}" from ${directory}` };
}

function resolveInPackage(folder: string, subpath: string, specifier: string): Resolution {
  let manifest: { exports?: unknown; main?: unknown };
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as typeof manifest;
  } catch (error) {
    return { found: false, reason: `${join(folder, 'package.json')} cannot be read (${(error as Error).message})` };
  }
  if (manifest.exports !== undefined && manifest.exports !== null) {
    const target = resolveExports(manifest.exports, subpath);
    if (typeof target !== 'string' || !target.startsWith('./')) {
      return {
        found: false,
        reason: `the package at ${folder} does not export "${subpath}" for import (no matching "exports" entry)`,
      };
    }
    return found(join(folder, target), specifier);
  }
  if (subpath !== '.') return resolvePath(join(folder, subpath), specifier);
  const main = typeof manifest.main === 'string' ? manifest.main : 'index.js';
  // Node's legacy main resolution: the file, then with .js, then as a folder with index.js.
  for (const candidate of [main, `${main}.js`, join(main, 'index.js'), 'index.js']) {
    if (isFile(join(folder, candidate))) return found(join(folder, candidate), specifier);
  }
  return { found: false, reason: `the package at ${folder} has no "exports" and its main file ${main} does not exist` };
}

function resolvePath(path: string, specifier: string): Resolution {
  if (isFile(path)) return found(path, specifier);
  if (existsSync(join(path, 'package.json'))) return resolveInPackage(path, '.', specifier);
  if (isFile(join(path, 'index.js'))) return found(join(path, 'index.js'), specifier);
  return { found: false, reason: `${path} does not exist` };
}

/** Resolves a subpath through an `exports` value: a string, an array, a subpath map or conditions. */
export function resolveExports(exports: unknown, subpath: string): string | null | undefined {
  const isSubpathMap =
    typeof exports === 'object' &&
    exports !== null &&
    !Array.isArray(exports) &&
    Object.keys(exports).some((key) => key.startsWith('.'));
  const map = (isSubpathMap ? exports : { '.': exports }) as Record<string, unknown>;
  if (Object.hasOwn(map, subpath) && !subpath.includes('*')) return resolveTarget(map[subpath], undefined);
  // Patterns: the key with the longest prefix before its `*` wins, as in Node.
  let best: { key: string; match: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (
      subpath.length >= key.length - 1 &&
      subpath.startsWith(prefix) &&
      subpath.endsWith(suffix) &&
      (best === undefined || prefix.length > best.key.indexOf('*'))
    ) {
      best = { key, match: subpath.slice(prefix.length, subpath.length - suffix.length) };
    }
  }
  return best === undefined ? undefined : resolveTarget(map[best.key], best.match);
}

function resolveTarget(target: unknown, patternMatch: string | undefined): string | null | undefined {
  if (typeof target === 'string') return patternMatch === undefined ? target : target.replaceAll('*', patternMatch);
  if (Array.isArray(target)) {
    for (const item of target) {
      const resolved = resolveTarget(item, patternMatch);
      if (typeof resolved === 'string') return resolved;
    }
    return undefined;
  }
  if (typeof target === 'object' && target !== null) {
    // Conditions are tried in the package's key order; the first active one that resolves wins.
    for (const [condition, value] of Object.entries(target)) {
      if (!CONDITIONS.has(condition)) continue;
      const resolved = resolveTarget(value, patternMatch);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }
  return target === null ? null : undefined;
}

function found(path: string, specifier: string): Resolution {
  if (!isFile(path)) return { found: false, reason: `"${specifier}" points at ${path}, which does not exist` };
  return { found: true, url: pathToFileURL(realpathSync(path)).href };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
