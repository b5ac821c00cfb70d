import { HooklineError } from './hookline-error.ts';

/**
 * Thrown when runners or sandbox providers handed to Hookline do not fit together: a plugin that
 * does not implement the interface version this core speaks, two runners claiming one type, or a
 * config that needs a plugin that was not passed.
 */
export class PluginError extends HooklineError {
  constructor(message: string) {
    super('HOOKLINE_PLUGIN_INVALID', message);
    this.name = 'PluginError';
  }
}
