export { DockerContainerError } from './docker-container-error.ts';
export { DockerExecError, type DockerExecErrorKind } from './docker-exec-error.ts';
export type { DockerExecResult } from './docker-exec-result.ts';
export { DockerImageMissingError } from './docker-image-missing-error.ts';
export { dockerSandbox, type DockerSandboxProvider, type DockerSandboxSettings } from './docker-sandbox.ts';
export type { DockerSandboxCallbacks, DockerSandboxInfo } from './docker-sandbox-events.ts';
export type { DockerSandboxSession } from './docker-session.ts';
export { DockerSettingsError } from './docker-settings-error.ts';
export { dockerSettingsSchema, dockerSettingsTable, type DockerSettingsData } from './docker-settings.ts';
export { DockerUnavailableError } from './docker-unavailable-error.ts';
export { LABELS, SANDBOX_MARKER } from './labels.ts';
export type { PruneOptions, PruneReport, SandboxContainer } from './prune-containers.ts';
export { pruneDockerSandboxes } from './prune-docker-sandboxes.ts';
export {
  DEFAULT_IMAGE,
  DEFAULT_TMPFS,
  resolveDockerSettings,
  type ResolvedDockerSettings,
} from './resolve-docker-settings.ts';
