import { HooklineError } from '@hookline/core';

/**
 * A sandboxed hook created or replaced a path that decides what runs outside the sandbox later (a
 * `hookline.toml`, an agent's settings, a git hook). What it left was moved aside, never deleted;
 * `exec` rejects with this error afterwards, so the hook is `failed` with a message naming each path,
 * where it went and what to do, and the emit's outcome warns about it.
 */
export class BubblewrapProtectedPathError extends HooklineError {
  constructor(message: string) {
    super('HOOKLINE_BUBBLEWRAP_PROTECTED_PATH_CHANGED', message);
    this.name = 'BubblewrapProtectedPathError';
  }
}
