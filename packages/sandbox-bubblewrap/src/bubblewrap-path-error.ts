import { HooklineError } from '@hookline/core';

/**
 * A path the bubblewrap sandbox was to bind is refused: it is missing, it resolves (through links)
 * to `/` or a system directory, or it lies inside a path that decides what runs outside the sandbox
 * later. `exec` rejects with it, so the hook is `failed` naming the resolved path and its `on_error`
 * decides — it never runs with the bind.
 */
export class BubblewrapPathError extends HooklineError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HOOKLINE_BUBBLEWRAP_PATH_REFUSED', message, options);
    this.name = 'BubblewrapPathError';
  }
}
