import { realpath, stat } from 'node:fs/promises';
import process from 'node:process';
import type { EventContext } from '@hookline/core/plugin';
import { messageOf } from '@hookline/core/plugin';

/** The context's `cwd`, checked: absent, or a non-empty string. */
export function contextCwd(
  context: EventContext,
): { readonly ok: true; readonly cwd: string | undefined } | { readonly ok: false; readonly error: string } {
  const cwd = context['cwd'];
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '')) {
    return { ok: false, error: `the context's cwd must be a non-empty string, got ${JSON.stringify(cwd)}` };
  }
  return { ok: true, cwd };
}

/**
 * The host directory an agent's file tools are confined to (`sandbox = false`), as a real path: the
 * context's `cwd`, else the host's working directory. Like command hooks, a `cwd` that does
 * not exist fails the hook instead of silently falling back.
 */
export async function workingDirectory(
  context: EventContext,
): Promise<{ readonly ok: true; readonly path: string } | { readonly ok: false; readonly error: string }> {
  const checked = contextCwd(context);
  if (!checked.ok) return checked;
  const wanted = checked.cwd ?? process.cwd();
  try {
    const path = await realpath(wanted);
    if (!(await stat(path)).isDirectory())
      return { ok: false, error: `the context's cwd ${JSON.stringify(wanted)} is not a directory` };
    return { ok: true, path };
  } catch (error) {
    return { ok: false, error: `the working directory ${JSON.stringify(wanted)} cannot be used: ${messageOf(error)}` };
  }
}
