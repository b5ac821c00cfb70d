import { SettingsError } from '@hookline/core/plugin';

/**
 * Thrown by `bubblewrapSandbox()` when settings are invalid; its `issues` list every problem at once,
 * each naming its key under `[sandbox.bubblewrap]`.
 */
export class BubblewrapSettingsError extends SettingsError {
  constructor(problems: ReadonlyArray<{ readonly key: string; readonly message: string }>) {
    super('HOOKLINE_BUBBLEWRAP_SETTINGS_INVALID', 'bubblewrapSandbox()', 'sandbox.bubblewrap', problems);
    this.name = 'BubblewrapSettingsError';
  }
}
