import { resolveModule } from './resolve-module.ts';

/** What importing a package from some folders gave. */
export type ImportedModule =
  | { readonly status: 'loaded'; readonly url: string; readonly exports: Readonly<Record<string, unknown>> }
  | { readonly status: 'missing'; readonly reason: string }
  | { readonly status: 'failed'; readonly url: string; readonly error: unknown };

/**
 * Resolves `specifier` from the first of `folders` that has it and imports it. "Not installed" and
 * "installed but broken" are different answers: the first is often fine (an optional runner), the
 * second never is.
 */
export async function importModule(specifier: string, folders: readonly string[]): Promise<ImportedModule> {
  let reason = `cannot find "${specifier}"`;
  for (const folder of folders) {
    const resolution = resolveModule(specifier, folder);
    if (!resolution.found) {
      if (folder === folders[0]) reason = resolution.reason;
      continue;
    }
    try {
      return {
        status: 'loaded',
        url: resolution.url,
        exports: (await import(resolution.url)) as Record<string, unknown>,
      };
    } catch (error) {
      return { status: 'failed', url: resolution.url, error };
    }
  }
  return { status: 'missing', reason };
}
