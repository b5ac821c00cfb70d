import { randomBytes } from 'node:crypto';
import {
  createInFlight,
  messageOf,
  PluginError,
  type ExecRequest,
  type SandboxFileRequest,
} from '@hookline/core/plugin';
import {
  describeHiddenPathChanges,
  describeProtectedPathChanges,
  guardHiddenPaths,
  guardProtectedPaths,
  within,
} from '@hookline/runner-command/protected-paths';
import { FILES_DIRECTORY } from './agent-script.ts';
import { AgentGoneError } from './container-agent.ts';
import { containerCwd } from './container-cwd.ts';
import { createContainerKeeper, type ContainerKeeperScope } from './container-keeper.ts';
import { describeContainerStop } from './describe-container-stop.ts';
import { engineMessage, isConnectionFailure, isContainerGone } from './docker-errors.ts';
import { DockerExecError } from './docker-exec-error.ts';
import { DockerProtectedPathError } from './docker-protected-path-error.ts';
import type { DockerExecResult } from './docker-exec-result.ts';
import type { DockerSandboxInfo } from './docker-sandbox-events.ts';
import { DockerUnavailableError } from './docker-unavailable-error.ts';
import { execRequestProblem } from './exec-request-problem.ts';
import { parseLimitCounters } from './limit-counters.ts';
import { limitVerdict, type CountedLimits } from './limit-verdict.ts';
import { EXEC_MARKER_VARIABLE, stopProcesses } from './process-killer.ts';
import { runContainer, type RunContainer } from './run-container.ts';
import { runAgentHook, type AgentHookResult, type AgentHookSpec } from './run-agent-hook.ts';
import { runExec, type RawExecResult } from './run-exec.ts';
import { describeStartFailure, missingCwdMessage, missingProgramMessage } from './start-failure.ts';
import { SPAWN_TOOLS, spawnProblem } from './hook-spawner.ts';

/** What a run's sandbox needs from its provider: what its container keeper needs, less what the sandbox adds itself. */
export type RunSandboxScope = Omit<ContainerKeeperScope, 'prepare' | 'signal'>;

/** The container of one run and everything done in it; shared by every session handle of the run. */
export interface RunSandbox {
  readonly info: () => DockerSandboxInfo;
  readonly warnings: readonly string[];
  exec(request: ExecRequest, lifetime: AbortSignal): Promise<DockerExecResult>;
  writeFile(request: SandboxFileRequest): Promise<string>;
  removeFile(path: string): Promise<void>;
  /** Ends running execs (their processes get TERM, grace, KILL), tells `onCleanup`, removes the container. */
  close(): Promise<void>;
}

const decoder = new TextDecoder();

/**
 * Stdin the agent takes for a hook it starts: its shell reads a pipe a byte at a time (see
 * `container-agent.ts`), so a larger stdin goes through a Docker exec, which streams it.
 */
const AGENT_STDIN_LIMIT = 64 * 1024;
/** Output cap the agent keeps per stream on the container's tmpfs; hooks allowed more are execs. */
const AGENT_OUTPUT_LIMIT = 8 * 1024 * 1024;

/**
 * Starts a run's container and returns its sandbox. A hook is started by the container's agent
 * (see `run-agent-hook.ts`), or is a Docker exec when the agent cannot take it (a large stdin or
 * output cap, a variable name a shell cannot export, an image without the agent's tools, an agent
 * that is gone); everything around it — its context file, stopping its processes, reading the
 * limit counters — goes through the agent. A container that dies is replaced once, on next use (see {@link createContainerKeeper});
 * the hooks that were running when it died are failed, never retried, since they may have had effects.
 */
export async function openRunSandbox(scope: RunSandboxScope, signal: AbortSignal): Promise<RunSandbox> {
  const { settings, runId, callbacks } = scope;
  const first = await runContainer(scope.connection, runId, settings, signal, scope.track);
  // Kept until removed, so a replacement container gets them again.
  const files = new Map<string, { readonly data: string | Uint8Array; readonly mode: number }>();
  const running = createInFlight();
  const stopAll = new AbortController();
  let counted: CountedLimits = { oomKills: 0, pidsLimitHits: 0 };
  let closing: Promise<void> | undefined;
  const keeper = createContainerKeeper(
    {
      ...scope,
      signal: stopAll.signal,
      async prepare(container) {
        // A new container starts with fresh counters and an empty /tmp.
        counted = { oomKills: 0, pidsLimitHits: 0 };
        for (const [path, file] of files) await container.agent.request('w', path, file.mode.toString(8), file.data);
      },
    },
    first,
  );
  try {
    await callbacks.onReady?.(keeper.info());
  } catch (error) {
    await keeper.close();
    throw error;
  }

  /** Ends an exec's processes through the agent; restarts the container when they cannot be ended. */
  const stop = async (container: RunContainer, marker: string): Promise<void> => {
    let ended: boolean;
    try {
      ended = await stopProcesses(
        async (signalName) => Number((await container.agent.request('k', marker, signalName)).text),
        settings.killGraceMs,
      );
    } catch (error) {
      // An agent that is gone took the container, and with it every process, along.
      if (error instanceof AgentGoneError) return;
      ended = false;
    }
    if (!ended)
      await keeper.replace(container, 'processes of a stopped hook could not be ended', false).catch(() => undefined);
  };

  /** The limit counters' verdict on an exec; a container that stopped under the hook fails it. */
  const checkLimits = async (
    container: RunContainer,
    exitCode: number | null,
    stopped: boolean,
    counters?: string,
  ): Promise<readonly string[]> => {
    let answer = counters;
    try {
      answer ??= (await container.agent.request('c')).text;
    } catch (error) {
      if (stopped || !(error instanceof AgentGoneError)) return [];
      throw await diedUnder(container);
    }
    const verdict = limitVerdict(counted, parseLimitCounters(answer), settings, exitCode, stopped);
    counted = verdict.counted;
    if (verdict.error !== undefined) throw verdict.error;
    return verdict.notes;
  };

  const diedUnder = async (container: RunContainer): Promise<DockerExecError> =>
    new DockerExecError(
      'container',
      `the run's container stopped while the hook ran (${await describeContainerStop(container.container)}); the hook did not complete, and the next hook of the run gets a new container`,
    );

  /** The exec's result, once its container and its limits had their say. */
  const finish = async (
    container: RunContainer,
    generation: number,
    raw: RawExecResult,
    notes: string[],
    counters?: string,
  ): Promise<DockerExecResult> => {
    const result: DockerExecResult = {
      exitCode: raw.exitCode,
      signal: null,
      stdout: raw.stdout,
      stderr: raw.stderr,
      stdoutTruncated: raw.stdoutTruncated,
      stderrTruncated: raw.stderrTruncated,
      aborted: raw.aborted,
      warnings: notes,
    };
    if (raw.aborted) {
      notes.push(...(await checkLimits(container, raw.exitCode, true, counters)));
      return result;
    }
    if (keeper.generation !== generation) {
      throw new DockerExecError(
        'container',
        `the run's container was replaced while the hook ran (see the session's warnings); the hook did not complete`,
      );
    }
    // After every exec, not only failed ones: a shell whose forks were refused may still exit 0, and
    // asking the agent costs well under a millisecond. This also finds a container that died under the hook.
    const limitNotes = await checkLimits(container, raw.exitCode, false, counters);
    notes.push(...limitNotes);
    return result;
  };

  let explained: RunContainer['agent'] | undefined;
  /** Why this hook cannot go through the agent, if it cannot: `exec` for a hook the agent does not take, else a note for the hook's report. */
  const agentRefusal = (
    agent: RunContainer['agent'],
    request: ExecRequest,
    maxOutputBytes: number,
  ): string | undefined => {
    if (agent.gone !== undefined || !agent.startsHooks) {
      // Said once per container in the session's warnings, and in the report of every hook it concerns.
      const why = agent.gone ?? `image "${settings.image}" lacks one of ${SPAWN_TOOLS.join(', ')}`;
      if (explained !== agent)
        keeper.warn(
          `${why}: hooks of run "${runId}" go through docker exec, which costs tens of milliseconds more each`,
        );
      explained = agent;
      return agent.gone === undefined ? 'exec' : `${agent.gone}; this hook ran through docker exec`;
    }
    if (request.stdin !== undefined && request.stdin.length > AGENT_STDIN_LIMIT) return 'exec';
    if (maxOutputBytes > AGENT_OUTPUT_LIMIT) return 'exec';
    return spawnProblem({ env: request.env ?? {} }) === undefined ? undefined : 'exec';
  };

  // Why a hook's command never started, in the words every start failure shares.
  const notStarted = (why: string, cause?: unknown): DockerExecError =>
    new DockerExecError(
      'start',
      `could not start the command in the container of run "${runId}": ${why}`,
      cause === undefined ? undefined : { cause },
    );

  const viaAgent = async (container: RunContainer, spec: AgentHookSpec, notes: string[]): Promise<DockerExecResult> => {
    const generation = keeper.generation;
    let raw: AgentHookResult;
    try {
      raw = await runAgentHook(container.agent, spec);
    } catch (error) {
      if (container.agent.isEnded) throw await diedUnder(container);
      // Whether the hook started is not known: it is stopped, not retried (it may have had effects).
      await stop(container, spec.marker);
      if (error instanceof AgentGoneError) {
        throw new DockerExecError(
          'container',
          `the container's agent stopped while it started the hook (${container.agent.gone ?? 'gone'}); the hook was stopped and did not complete, and later hooks of the run go through docker exec`,
        );
      }
      await checkLimits(container, null, false);
      throw notStarted(messageOf(error), error);
    }
    if (raw.notStarted !== undefined && !raw.aborted) {
      // A wrapper that died (`lost`) had no counters to report: they are asked for.
      await checkLimits(container, null, false, raw.counters === '' ? undefined : raw.counters);
      if (raw.notStarted === 'nocwd')
        throw new DockerExecError('start', missingCwdMessage(spec.workingDir, settings.image));
      if (raw.notStarted === 'noexec')
        throw new DockerExecError('start', missingProgramMessage(spec.argv[0]!, settings.image));
      throw notStarted(
        raw.notStarted === 'lost' ? 'a fork in the container failed' : 'the agent could not read its setup',
      );
    }
    return finish(container, generation, raw, notes, raw.counters);
  };

  // What decides what runs outside later stays read-only inside (the container's nested binds); a
  // protected path that appeared since the container was made is not, so the hook does not run; one
  // the hook created in a writable mount is moved aside and fails it.
  const execOnce = async (
    request: ExecRequest,
    lifetime: AbortSignal,
    retry: boolean,
    notes: string[],
  ): Promise<DockerExecResult> => {
    const container = await keeper.current(notes);
    const hidden = guardHiddenPaths(container.sources, settings.hiddenPaths ?? []);
    const uncovered = hidden.covered.filter(
      (cover) => !container.hiddenPaths.some((covered) => within(cover.path, covered)),
    );
    if (uncovered.length > 0) {
      throw new DockerProtectedPathError(
        `${uncovered.map((cover) => cover.path).join(', ')} appeared after the container of run "${runId}" was made, so it is not covered inside it, and hooks must not read it (your secrets, or the journal key); the hook did not run. End the run (hookline's next run makes a new container that covers it).`,
      );
    }
    const guard = guardProtectedPaths(container.writable, settings.protectedPaths ?? []);
    const stale = guard.existing.filter((path) => !container.protectedPaths.some((covered) => within(path, covered)));
    if (stale.length > 0) {
      throw new DockerProtectedPathError(
        `${stale.join(', ')} appeared after the container of run "${runId}" was made, so it is not read-only inside it, and it decides what runs outside the sandbox later; the hook did not run. End the run (hookline's next run makes a new container that protects it).`,
      );
    }
    // A Hookline process started while the hook runs must not load a protected file it may be writing.
    const withdraw = guard.absent.length === 0 ? undefined : settings.onWatch?.(guard.absent);
    const ran = await execIn(container, request, lifetime, retry, notes).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const changes = guard.settle();
    const moved = hidden.settle().filter((change) => container.hiddenPaths.includes(change.path));
    withdraw?.();
    if (moved.length > 0) {
      const message = describeHiddenPathChanges('docker', moved);
      if (!('result' in ran) || ran.result.aborted) callbacks.onWarning?.(message, runId);
      throw new DockerProtectedPathError(message);
    }
    if (changes.length > 0) {
      const message = describeProtectedPathChanges('docker', changes);
      // A stopped hook's report is already made: say it where the host hears the provider.
      if (!('result' in ran) || ran.result.aborted) callbacks.onWarning?.(message, runId);
      throw new DockerProtectedPathError(message);
    }
    if ('error' in ran) throw ran.error;
    return ran.result;
  };

  const execIn = async (
    container: RunContainer,
    request: ExecRequest,
    lifetime: AbortSignal,
    retry: boolean,
    notes: string[],
  ): Promise<DockerExecResult> => {
    const argv =
      typeof request.command === 'string' ? [request.shell ?? 'sh', '-c', request.command] : [...request.command];
    const env = request.env ?? {};
    // The marker is how the agent finds every process of this hook later, setsid'ed ones included.
    const marker = randomBytes(12).toString('hex');
    const launch = {
      workingDir: containerCwd(request.cwd, settings.workdir, settings.mounts),
      ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
      maxOutputBytes: request.maxOutputBytes ?? settings.maxOutputBytes,
      signal: request.signal === undefined ? lifetime : AbortSignal.any([request.signal, lifetime]),
      stop: () => stop(container, marker),
    };
    const refusal = agentRefusal(container.agent, request, launch.maxOutputBytes);
    if (refusal === undefined) return viaAgent(container, { ...launch, argv, env, marker }, notes);
    if (refusal !== 'exec') notes.push(refusal);
    const generation = keeper.generation;
    let raw;
    try {
      raw = await runExec(container.container, {
        ...launch,
        cmd: argv,
        env: [...Object.entries(env).map(([name, value]) => `${name}=${value}`), `${EXEC_MARKER_VARIABLE}=${marker}`],
        user: settings.user,
      });
    } catch (error) {
      // Docker refused the exec before anything ran: the container died between hooks. Replace it and try again, once.
      if (retry && isContainerGone(error)) {
        const reason = await describeContainerStop(container.container);
        await keeper.replace(container, reason, true);
        notes.push(
          `the run's container had stopped (${reason}); this hook ran in a replacement, ${keeper.latest().name}`,
        );
        return execOnce(request, lifetime, false, notes);
      }
      if (isConnectionFailure(error)) throw new DockerUnavailableError(scope.connection.address, error);
      throw notStarted(engineMessage(error), error);
    }
    if (!raw.aborted && keeper.generation === generation) {
      const failure = describeStartFailure({
        exitCode: raw.exitCode,
        stdout: decoder.decode(raw.stdout),
        stderr: decoder.decode(raw.stderr),
        image: settings.image,
      });
      if (failure !== undefined) {
        await checkLimits(container, raw.exitCode, false);
        throw new DockerExecError('start', failure);
      }
    }
    return finish(container, generation, raw, notes);
  };

  return {
    info: () => keeper.info(),
    warnings: keeper.warnings,
    exec(request, lifetime) {
      const problem = execRequestProblem(request);
      if (problem !== undefined) return Promise.reject(new DockerExecError('start', problem));
      return running.track(execOnce(request, AbortSignal.any([lifetime, stopAll.signal]), true, []));
    },
    async writeFile(request) {
      const { name } = request;
      if (name === '' || name === '.' || name === '..' || /[/\0\n]/.test(name)) {
        throw new PluginError(`writeFile takes a plain file name, got ${JSON.stringify(name)}`);
      }
      const path = `${FILES_DIRECTORY}/${name}`;
      if (files.has(path))
        throw new PluginError(`writeFile: ${path} was already written in this session; use a fresh name`);
      const mode = request.mode ?? 0o600;
      const write = async (): Promise<void> => {
        await (await keeper.current()).agent.request('w', path, mode.toString(8), request.data);
      };
      try {
        await write();
      } catch (error) {
        if (!(error instanceof AgentGoneError))
          throw new DockerExecError(
            'start',
            `could not write ${path} in the container of run "${runId}": ${messageOf(error)}`,
          );
        // The container stopped just now: the next use replaces it.
        await write();
      }
      files.set(path, { data: request.data, mode });
      return path;
    },
    async removeFile(path) {
      if (!path.startsWith(`${FILES_DIRECTORY}/`))
        throw new PluginError(`removeFile removes only files written with writeFile, not ${JSON.stringify(path)}`);
      const container = keeper.latest();
      if (!files.delete(path) || closing !== undefined || container.agent.isEnded) return;
      try {
        await container.agent.request('r', path);
      } catch (error) {
        // A container that stopped took the file with it.
        if (!(error instanceof AgentGoneError)) throw error;
      }
    },
    close() {
      closing ??= (async () => {
        stopAll.abort(new DockerExecError('disposed', `the docker session of run "${runId}" was disposed`));
        await running.settled();
        try {
          await callbacks.onCleanup?.(keeper.info());
        } catch (error) {
          keeper.warn(`onCleanup of run "${runId}" failed: ${messageOf(error)}`);
        }
        await keeper.close();
      })();
      return closing;
    },
  };
}
