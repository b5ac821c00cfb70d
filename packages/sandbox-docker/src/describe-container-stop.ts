import type Docker from 'dockerode';
import { engineMessage, statusOf } from './docker-errors.ts';

/** How a container that stopped ended, from its inspect: `status exited, exit code 137, killed for lack of memory`. */
export async function describeContainerStop(container: Docker.Container): Promise<string> {
  try {
    const state = (await container.inspect()).State;
    const parts = [`status ${state.Status}`, `exit code ${state.ExitCode}`];
    if (state.OOMKilled) parts.push('killed for lack of memory');
    if (state.Error) parts.push(state.Error);
    return parts.join(', ');
  } catch (error) {
    return statusOf(error) === 404 ? 'it was removed' : engineMessage(error);
  }
}
