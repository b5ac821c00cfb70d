import { HooklineError } from '@hookline/core/plugin';

/**
 * bwrap cannot make a sandbox on this host: it is not installed, or the kernel refuses it user
 * namespaces. Opening a run's sandbox rejects with it, so every sandboxed hook of the run is
 * `failed` with this message and its `on_error` decides — the hook never runs unsandboxed.
 */
export class BubblewrapUnavailableError extends HooklineError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HOOKLINE_BUBBLEWRAP_UNAVAILABLE', message, options);
    this.name = 'BubblewrapUnavailableError';
  }
}
