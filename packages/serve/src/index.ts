// `@hookline/serve`: the resident engine. A program that runs hooks (the `hookline` CLI) hands it a
// backend — how configs load and how each agent is answered — and gets one long-lived process that
// answers every agent's hooks over HTTP and a Unix socket, with reload, trust and a per-user token.
export type { HookAnswer, LoadedConfig, ServeBackend, ServeRoute } from './serve-backend.ts';
export { startDaemon, type Daemon, type DaemonOptions } from './daemon.ts';
export { daemonStatus, detachDaemon, stopDaemon } from './daemon-control.ts';
export { readDaemonState, type DaemonState } from './daemon-state.ts';
export { requestOverSocket } from './daemon-client.ts';
export { jsonLog, type JsonLog, type LogFields, type LogSink } from './json-log.ts';
export type { SlotStatus } from './project-slot.ts';
export { servePaths, type ServePaths } from './serve-paths.ts';
export { ServeError } from './serve-error.ts';
export { loadOrCreateToken } from './serve-token.ts';
export { shimScript, type ShimOptions } from './shim-script.ts';
export { writeShim, type WriteShimOptions } from './install-shim.ts';
export {
  EMPTY_CONFIG_HASH,
  projectConfigHash,
  readTrustRecords,
  recordTrust,
  revokeTrust,
  trustVerdict,
  type TrustRecord,
  type TrustVerdict,
} from './trust-store.ts';
