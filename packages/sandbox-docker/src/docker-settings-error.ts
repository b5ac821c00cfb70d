import { SettingsError } from '@hookline/core/plugin';

/**
 * Thrown by `dockerSandbox()` when settings are invalid; its `issues` list every problem at once,
 * each naming its key under `[sandbox.docker]`.
 */
export class DockerSettingsError extends SettingsError {
  constructor(problems: ReadonlyArray<{ readonly key: string; readonly message: string }>) {
    super('HOOKLINE_DOCKER_SETTINGS_INVALID', 'dockerSandbox()', 'sandbox.docker', problems);
    this.name = 'DockerSettingsError';
  }
}
