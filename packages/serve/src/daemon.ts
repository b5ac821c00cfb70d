import { existsSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import process from 'node:process';
import { messageOf } from '@hookline/core';
import { removeOwnDaemonState, writeDaemonState } from './daemon-state.ts';
import { inFlightRequests } from './in-flight-requests.ts';
import type { JsonLog } from './json-log.ts';
import { listenSocket, listenTcp, stopListening } from './listen.ts';
import { ensurePrivateDir, writePrivateFile } from './private-files.ts';
import { requestHandler } from './request-handler.ts';
import { createResidentEngine } from './resident-engine.ts';
import type { ServeBackend } from './serve-backend.ts';
import type { ServePaths } from './serve-paths.ts';
import { loadOrCreateToken } from './serve-token.ts';
import { readTrustRecords } from './trust-store.ts';

/** How to start a daemon. */
export interface DaemonOptions {
  readonly backend: ServeBackend;
  readonly paths: ServePaths;
  readonly log: JsonLog;
  /** The TCP port on 127.0.0.1; 0 (the default) lets the system choose. */
  readonly port?: number;
  /** The version `status` reports. */
  readonly version: string;
  /** The largest payload read (default 8 MiB: a tool's output can be large). */
  readonly maxBodyBytes?: number;
}

/** A running daemon. */
export interface Daemon {
  readonly port: number;
  readonly socket: string;
  /** Stops accepting, answers the requests under way, closes every config (their hooks finish), removes the socket and state file. */
  stop(reason: string): Promise<void>;
}

/**
 * Starts the daemon: the token made if needed, both listeners open, the state file written, then
 * the trusted projects' configs loaded in the background (so their journals resume at once).
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { paths, log, backend } = options;
  ensurePrivateDir(paths.stateDir);
  const token = loadOrCreateToken(paths.tokenFile);
  const engine = createResidentEngine({ backend, trustFile: paths.trustFile, log });
  const inFlight = inFlightRequests();
  const startedAt = new Date().toISOString();
  let draining = false;
  let port = 0;
  const common = {
    engine,
    backend,
    inFlight,
    log,
    maxBodyBytes: options.maxBodyBytes ?? 8 * 1024 * 1024,
    draining: () => draining,
    status: async () => ({
      pid: process.pid,
      version: options.version,
      startedAt,
      port,
      socket: paths.socketFile,
      inFlight: inFlight.count,
      memory: process.memoryUsage(),
      projects: await engine.status(),
    }),
  };
  const servers: Server[] = [];
  try {
    servers.push(
      await listenSocket(requestHandler({ ...common, token: undefined }), paths.socketFile, paths.socketDir),
    );
    const tcp = await listenTcp(requestHandler({ ...common, token }), options.port ?? 0);
    servers.push(tcp);
    const address = tcp.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  } catch (error) {
    await Promise.all(servers.map(stopListening));
    throw error;
  }
  writeDaemonState(paths.stateFile, {
    pid: process.pid,
    port,
    socket: paths.socketFile,
    startedAt,
    version: options.version,
  });
  writePrivateFile(paths.portFile, `${port}\n`);
  log.info('listening', { pid: process.pid, port, socket: paths.socketFile, version: options.version });
  void preloadTrusted(engine, paths.trustFile, log);
  let stopping: Promise<void> | undefined;
  return {
    port,
    socket: paths.socketFile,
    stop(reason) {
      stopping ??= (async () => {
        draining = true;
        log.info('stopping: answering the requests under way', { reason, inFlight: inFlight.count });
        const closed = Promise.all(servers.map(stopListening));
        await inFlight.idle();
        await engine.close();
        await closed;
        rmSync(paths.socketFile, { force: true });
        if (removeOwnDaemonState(paths.stateFile)) rmSync(paths.portFile, { force: true });
        log.info('stopped', { reason });
      })();
      return stopping;
    },
  };
}

/** Loads the config agents' calls read in every trusted project: durable hooks a stopped daemon left run again now. */
async function preloadTrusted(engine: ReturnType<typeof createResidentEngine>, trustFile: string, log: JsonLog) {
  try {
    for (const project of Object.keys(readTrustRecords(trustFile))) {
      if (!existsSync(project)) continue;
      await engine.preload(project, { kind: 'bridge', agent: '', event: '' });
    }
  } catch (error) {
    log.warn('preloading the trusted projects failed', { problem: messageOf(error) });
  }
}
