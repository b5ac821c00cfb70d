import { HooklineError } from '@hookline/core';

/**
 * A sandboxed hook moved a path the sandbox keeps unreadable (a secret, the journal key's folder)
 * by renaming a folder above it, so that a later hook could read it where it went. `exec` rejects
 * with this error afterwards: the hook is `failed` with a message naming each path and what to do.
 */
export class BubblewrapHiddenPathError extends HooklineError {
  constructor(message: string) {
    super('HOOKLINE_BUBBLEWRAP_HIDDEN_PATH_MOVED', message);
    this.name = 'BubblewrapHiddenPathError';
  }
}
