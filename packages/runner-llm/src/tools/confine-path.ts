import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { messageOf } from '@hookline/core/plugin';
import { errorCode } from './error-text.ts';

/** A path inside the working directory, or why the tool must not touch it (text for the model). */
export type ConfinedPath =
  { readonly ok: true; readonly path: string; readonly shown: string } | { readonly ok: false; readonly error: string };

/** True when `path` is `root` or below it; both must be absolute and normalised. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `path` relative to `root` for texts shown to the model; `.` for the root itself. */
export function shownPath(root: string, path: string): string {
  return relative(root, path) || '.';
}

/**
 * Resolves a path the model gave against the working directory `root` (a real path) and refuses
 * anything outside it: `..` climbing out, absolute paths elsewhere, and symbolic links (anywhere
 * along the path) whose target is outside. The check is on real paths (`fs.realpath`), so a link
 * that points out is caught however it is reached. `forWriting` allows a path that does not exist
 * yet: then its nearest existing ancestor must be inside.
 *
 * This confines a model, not a concurrent attacker: someone who can swap a directory for a link
 * between this check and the use can still race it (writes also refuse a final symbolic link).
 */
export async function confinePath(root: string, requested: unknown, forWriting = false): Promise<ConfinedPath> {
  if (typeof requested !== 'string' || requested === '') return { ok: false, error: 'path must be a non-empty string' };
  if (requested.includes('\0')) return { ok: false, error: 'path must not contain a NUL character' };
  const lexical = resolve(root, requested);
  if (!isInside(root, lexical)) return refusal(requested, root);
  try {
    const real = await realpath(lexical);
    return isInside(root, real)
      ? { ok: true, path: real, shown: shownPath(root, lexical) }
      : refusal(requested, root, true);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT')
      return { ok: false, error: `cannot resolve ${JSON.stringify(requested)}: ${messageOf(error)}` };
  }
  // A dangling link: writing would create its target, wherever that is; reading may only say
  // "missing" when the target would be inside.
  if (await exists(lexical)) {
    if (forWriting) return refusal(requested, root, true);
    const target = resolve(dirname(lexical), await readlink(lexical).catch(() => '/'));
    return isInside(root, target) ? missing(requested) : refusal(requested, root, true);
  }
  // The deepest part of the path that exists decides where a new file would land — and whether
  // "no such file" may be said at all, since that would tell what exists outside.
  for (let ancestor = dirname(lexical); ; ancestor = dirname(ancestor)) {
    try {
      const real = await realpath(ancestor);
      if (!isInside(root, real)) return refusal(requested, root, true);
      if (!forWriting) return missing(requested);
      return { ok: true, path: resolve(real, relative(ancestor, lexical)), shown: shownPath(root, lexical) };
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || ancestor === dirname(ancestor))
        return { ok: false, error: `cannot resolve ${JSON.stringify(requested)}: ${messageOf(error)}` };
      if (await exists(ancestor)) return refusal(requested, root, true);
    }
  }
}

/** The answer for a path inside that does not exist. */
export function missing(requested: string): { readonly ok: false; readonly error: string } {
  return { ok: false, error: `no such file or directory: ${JSON.stringify(requested)}` };
}

/** Whether something (a dangling link included) is at `path`, without following a final link. */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The answer for a path outside the working directory `root`. */
export function refusal(
  requested: string,
  root: string,
  throughLink = false,
): { readonly ok: false; readonly error: string } {
  return {
    ok: false,
    error: `refused: ${JSON.stringify(requested)} is outside the working directory ${root}${throughLink ? ' (through a symbolic link)' : ''}; file tools only reach files inside it`,
  };
}
