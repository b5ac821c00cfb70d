import { spawn, type ChildProcess } from 'node:child_process';
import process from 'node:process';
import { HooklineError } from '@hookline/core/plugin';
import { CommandStartError } from './command-start-error.ts';
import { launchHere } from './launch-here.ts';
import type { Ending, LaunchedProcess, LaunchSpec } from './launched-process.ts';
import { spawnerMain } from './spawner-main.ts';
import type { SpawnerReport, SpawnerRequest } from './spawner-protocol.ts';
import { awaitRecord, gatedCommand, type GateVerdict } from './start-gate.ts';

/**
 * Node flags of the spawner. fork() copies the parent's page tables and exec() tears them down, so a
 * spawn costs more the more memory the spawning process maps: a resident host grown to a few
 * hundred MiB pays several times what a fresh Node process does for every process it starts. The
 * spawner holds nothing but its pipes; small heap limits keep it that way.
 */
const SPAWNER_FLAGS = ['--max-old-space-size=32', '--max-semi-space-size=1', '--single-threaded'];
/** Where a gated process finds its start gate's pipe: the spawner passes it no other descriptor. */
const SPAWNER_GATE_FD = 3;
/** Shown in `ps` after the program, so a user can tell what the extra `node` is. */
const SPAWNER_TITLE = 'hookline-spawner';

/** A process started through the spawner, from the request until its output is closed. */
interface Flight {
  readonly spec: LaunchSpec;
  /**
   * Whether the request reached the spawner: `sending` until the write completed; `refused` when it
   * could not be written (the spawner is gone, so it surely did not start the process).
   */
  delivery: 'sending' | 'written' | 'refused';
  /** Whether it was sent again, once, after a spawner refused it. */
  retried: boolean;
  pid?: number;
  /** What became of its start gate, when it has one. */
  gate?: GateVerdict;
  started: { resolve: (process: LaunchedProcess) => void; reject: (error: unknown) => void };
  ended?: { resolve: (ending: Ending) => void; reject: (error: unknown) => void };
  closed?: () => void;
}

/** One spawner process and the launches in flight through it. */
interface Spawner {
  readonly child: ChildProcess;
  readonly flights: Map<number, Flight>;
  /** How it ended ("was killed by SIGKILL"), once it did. */
  lost?: string;
}

/**
 * Spawns processes from a small helper process (the resident spawner) instead of the calling
 * process: for a long-lived host whose own memory makes every fork slow (`hookline serve`). The
 * spawner is started on first use and again after it died; it exits when this process does (its IPC
 * channel closes). A request it could not even be sent (it had died unnoticed) goes to a new
 * spawner. A launch in flight when it died fails: one it had been sent but not started with a
 * `CommandStartError` (whether it read the request cannot be known), one running with
 * `HOOKLINE_COMMAND_SPAWNER_LOST` after its process group was ended by the caller, since its output
 * and exit can no longer be known.
 */
export class ResidentSpawner {
  #current: Spawner | undefined;
  #nextId = 1;

  /** The spawner's pid, when one runs. */
  get pid(): number | undefined {
    return this.#current?.child.pid;
  }

  /** Starts `spec` through the spawner; `undefined` when no spawner can be started (spawn from here then). */
  launch(spec: LaunchSpec): Promise<LaunchedProcess> | undefined {
    const spawner = this.#spawner();
    if (spawner === undefined) return undefined;
    return new Promise<LaunchedProcess>((resolve, reject) =>
      this.#send(spawner, { spec, delivery: 'sending', retried: false, started: { resolve, reject } }),
    );
  }

  #send(spawner: Spawner, flight: Flight): void {
    const id = this.#nextId++;
    const { spec } = flight;
    // Behind a gate, the command line is the gate's, its pipe at fd 3 held by the spawner.
    const gate = spec.gate === undefined ? undefined : gatedCommand(spec.file, spec.args, SPAWNER_GATE_FD);
    const request: SpawnerRequest = {
      type: 'spawn',
      id,
      file: gate?.file ?? spec.file,
      args: gate?.args ?? spec.args,
      ...(gate === undefined ? {} : { gated: true }),
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
      env: spec.env,
      ...(spec.stdin === undefined
        ? {}
        : typeof spec.stdin === 'string'
          ? { stdin: spec.stdin }
          : { stdin: Buffer.from(spec.stdin).toString('base64'), stdinBase64: true }),
      // One byte past the cap tells the capture that more came.
      limit: spec.limit + 1,
    };
    flight.delivery = 'sending';
    spawner.flights.set(id, flight);
    if (spawner.flights.size === 1) hold(spawner.child, true);
    spawner.child.send(request, (error: Error | null) => {
      if (error === null) {
        flight.delivery = 'written';
        // Written to a spawner that died meanwhile: whether it read the request cannot be known.
        if (spawner.lost !== undefined && flight.pid === undefined) this.#failStart(spawner, flight);
        return;
      }
      // Not written: the spawner died before this process noticed (its exit is still on the way).
      // It cannot have started the process, so another spawner may.
      flight.delivery = 'refused';
      this.#settle(spawner, id);
      if (this.#current === spawner) this.#current = undefined;
      this.#retry(flight);
    });
  }

  /** Sends a refused request once more, to a new spawner, or spawns it from here when none starts. */
  #retry(flight: Flight): void {
    if (flight.retried) {
      flight.started.reject(
        new CommandStartError(
          `two process spawners in a row refused to start ${JSON.stringify(flight.spec.file)}; the next hook starts a new one`,
        ),
      );
      return;
    }
    flight.retried = true;
    const spawner = this.#spawner();
    if (spawner !== undefined) this.#send(spawner, flight);
    else launchHere(flight.spec).then(flight.started.resolve, flight.started.reject);
  }

  #failStart(spawner: Spawner, flight: Flight): void {
    flight.started.reject(
      new CommandStartError(
        `the process spawner (pid ${spawner.child.pid ?? 'unknown'}) ${spawner.lost} before it started ${JSON.stringify(flight.spec.file)}; the next hook starts a new spawner`,
      ),
    );
  }

  #spawner(): Spawner | undefined {
    if (this.#current !== undefined && this.#current.lost === undefined && this.#current.child.connected)
      return this.#current;
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [...SPAWNER_FLAGS, '-e', `(${spawnerMain.toString()})()`, SPAWNER_TITLE], {
        // Its own session: a Ctrl-C at the host's terminal must reach the host, which ends its hooks its way.
        detached: true,
        // Nothing of the host's environment: it could hold NODE_OPTIONS that load modules into the spawner.
        env: {},
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        serialization: 'json',
      });
    } catch {
      return undefined;
    }
    if (child.pid === undefined) {
      child.on('error', () => undefined);
      return undefined;
    }
    const spawner: Spawner = { child, flights: new Map() };
    child.on('error', () => undefined);
    child.on('message', (report: SpawnerReport) => this.#receive(spawner, report));
    // Its reports are all read once the channel is closed, and its exit says what happened: flights
    // fail once both are known. Either alone for long means a spawner that is of no use any more.
    let exit: string | undefined;
    child.once('disconnect', () => {
      if (this.#current === spawner) this.#current = undefined;
      if (exit !== undefined) this.#lose(spawner, exit);
      else later(() => child.kill('SIGKILL'));
    });
    child.once('exit', (code, signal) => {
      exit = signal === null ? `exited with code ${code}` : `was killed by ${signal}`;
      if (!child.connected) this.#lose(spawner, exit);
      else later(() => this.#lose(spawner, exit!));
    });
    hold(child, false);
    this.#current = spawner;
    return spawner;
  }

  #receive(spawner: Spawner, report: SpawnerReport): void {
    const flight = spawner.flights.get(report.id);
    if (flight === undefined) return;
    switch (report.type) {
      case 'started': {
        flight.pid = report.pid;
        const { gate } = flight.spec;
        if (gate === undefined) flight.spec.onStarted(report.pid);
        else {
          flight.gate = awaitRecord(gate(report.pid), (go) => {
            if (spawner.child.connected)
              spawner.child.send({ type: 'gate', id: report.id, go } satisfies SpawnerRequest);
          });
        }
        const ended = new Promise<Ending>((resolve, reject) => (flight.ended = { resolve, reject }));
        const closed = new Promise<void>((resolve) => (flight.closed = resolve));
        // A lost spawner rejects `ended`; the caller awaits it, but not necessarily before the rejection.
        ended.catch(() => undefined);
        flight.started.resolve({
          pid: report.pid,
          ended,
          closed,
          dropOutput: () => {
            this.#settle(spawner, report.id);
            if (spawner.child.connected) spawner.child.send({ type: 'drop', id: report.id } satisfies SpawnerRequest);
          },
        });
        break;
      }
      case 'failed':
        this.#settle(spawner, report.id);
        // As spawn reported it, for the same description an in-process start failure gets.
        flight.started.reject(new ReportedSpawnError(report.message, report.code));
        break;
      case 'output':
        (report.fd === 1 ? flight.spec.stdout : flight.spec.stderr).write(Buffer.from(report.data, 'base64'));
        break;
      case 'exit': {
        const refusal = flight.gate?.refusal(report.code);
        if (refusal !== undefined) flight.ended?.reject(refusal);
        else flight.ended?.resolve({ code: report.code, signal: report.signal as NodeJS.Signals | null });
        if (report.closed) {
          this.#settle(spawner, report.id);
          flight.closed?.();
        }
        break;
      }
      case 'closed':
        this.#settle(spawner, report.id);
        flight.closed?.();
        break;
    }
  }

  /** Forgets a flight; the spawner no longer keeps this process alive once none is left. */
  #settle(spawner: Spawner, id: number): void {
    if (spawner.flights.delete(id) && spawner.flights.size === 0) hold(spawner.child, false);
  }

  #lose(spawner: Spawner, how: string): void {
    if (spawner.lost !== undefined) return;
    spawner.lost = how;
    if (this.#current === spawner) this.#current = undefined;
    const flights = [...spawner.flights.values()];
    spawner.flights.clear();
    hold(spawner.child, false);
    for (const flight of flights) {
      if (flight.pid === undefined) {
        // One still being written is decided when the write completes (see #send).
        if (flight.delivery === 'written') this.#failStart(spawner, flight);
        continue;
      }
      flight.ended?.reject(
        new HooklineError(
          'HOOKLINE_COMMAND_SPAWNER_LOST',
          `the process spawner (pid ${spawner.child.pid ?? 'unknown'}) ${how} while process ${flight.pid} ran: its output and exit status are lost, and its process group was ended; the next hook starts a new spawner`,
        ),
      );
      flight.closed?.();
    }
  }
}

/** A spawn failure the spawner reported, shaped as the error `spawn` would have thrown here (its errno code). */
class ReportedSpawnError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'ReportedSpawnError';
    this.code = code;
  }
}

/** How long a spawner whose channel closed may take to exit (and the other way round) before it counts as lost. */
const PARTING_MS = 1_000;

function later(action: () => void): void {
  setTimeout(action, PARTING_MS).unref();
}

/** Keeps this process alive for the spawner's sake only while a launch is in flight. */
function hold(child: ChildProcess, held: boolean): void {
  const channel = child.channel as { ref?: () => void; unref?: () => void } | null | undefined;
  if (held) {
    child.ref();
    channel?.ref?.();
  } else {
    child.unref();
    channel?.unref?.();
  }
}
