import { HooklineError } from './hookline-error.ts';

/**
 * Why a run's sandboxed hook cannot have the run's sandbox: a blocking hook of the preset's sandbox
 * `ready` event refused it. The hook fails with this message and its `on_error` decides; the refusal
 * holds until the run ends.
 */
export class SandboxRefusedError extends HooklineError {
  constructor(message: string) {
    super('HOOKLINE_SANDBOX_REFUSED', message);
    this.name = 'SandboxRefusedError';
  }
}
