import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.turbo']);
const CODE_FILE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

/** Every code file of a package, as paths relative to its folder with `/` separators. */
export function codeFiles(dir: string, folder = dir): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : codeFiles(dir, path);
    return CODE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [relative(dir, path).split(sep).join('/')]
      : [];
  });
}

/**
 * Whether a file is test code rather than the package's own code: tests, type tests, test-support
 * helpers, benchmarks, runtime tests, examples, build and maintenance scripts, tool configs.
 * Everything else — src/ but for its tests — ships and runs for users.
 */
export function isTestCode(file: string): boolean {
  if (/\.test(?:-d)?\.[cm]?[jt]s$/.test(file)) return true;
  if (/^(?:test-support|bench|runtime-tests|examples|scripts)\//.test(file)) return true;
  return !file.startsWith('src/') && !file.startsWith('bin/');
}

/** A source text without its comments (doc examples name imports that are not made); strings are kept. */
export function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

// Where a module is named: `from '…'`, `import '…'`, `import('…')`, `import.meta.resolve('…')`,
// `require('…')`, `require.resolve('…')` and `new URL('…', import.meta.url)`.
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*(?:\/\*[^*]*\*\/\s*)?|\bimport\s+|\bresolve\s*\(\s*|\brequire\s*\(\s*|\bnew\s+URL\s*\(\s*)(['"`])([^'"`$]+)\1/g;

/** The module specifiers a source names (package names and relative paths alike). */
export function specifiersOf(source: string): string[] {
  return [...withoutComments(source).matchAll(SPECIFIER)].map((match) => match[2]!);
}
