import {
  builtInPresets,
  findAgentPreset,
  type AgentAdapter,
  type AgentCall,
  type HookEngine,
  type Preset,
  type WireAnswer,
} from '@hookline/core';
import type { HookAnswer } from '@hookline/serve';
import { answerOnEngine, planBridgedCall } from '../bridge/run-bridged-event.ts';
import { failureReason } from '../bridge/failure-reason.ts';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';
import type { Setup } from '../config/load-setup.ts';

type AgentPreset = Preset & { readonly agent: AgentAdapter };

/** What the daemon needs to answer one agent call on a loaded config. */
export interface AgentCallRun {
  readonly agent: string;
  /** The event the request's path names (the shim's `--event`), '' or absent when none. */
  readonly event?: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly setup: Setup;
  readonly engine: HookEngine;
  readonly io: CliIo;
  readonly notice: string | undefined;
}

/**
 * The daemon's `hookline bridge <agent>`: the same reading of the payload, the same plan, the same
 * run on the engine (`answerOnEngine`) and the same answers — including the fail-closed ones, and the
 * bridge's deadline, after which a guard is refused while its hooks are ended by their own timeouts.
 */
export async function answerAgentCall(run: AgentCallRun): Promise<HookAnswer> {
  const owner = findAgentPreset(run.setup.presets.all, run.agent);
  if (owner === undefined) return unknownAgent(run.agent);
  const read = owner.agent.readCall(run.payload, entryEvent(run.event));
  if ('problem' in read)
    return hookAnswer(owner.agent.writeFailure(undefined, failureReason(bridgeInput(read.problem), true)));
  const call = read;
  const fail = (error: unknown) =>
    hookAnswer(owner.agent.writeFailure(call, failureReason(error, owner.agent.isGuard(call))));
  try {
    const plan = planBridgedCall(owner, call, run.setup);
    if ('answer' in plan) return hookAnswer(plan.answer);
    const answered = answerOnEngine({
      ...plan,
      owner,
      call,
      setup: run.setup,
      engine: run.engine,
      io: run.io,
      notice: run.notice,
    });
    return hookAnswer(await withinDeadline(answered, owner));
  } catch (error) {
    return fail(error);
  }
}

/** The answer when nothing may run for the agent's call: the adapter's failure answer with `reason`. */
export function refuseAgentCall(
  agent: string,
  payload: Readonly<Record<string, unknown>>,
  reason: string,
  event?: string,
): HookAnswer {
  const owner = findAgentPreset(builtInPresets.all, agent);
  if (owner === undefined) return unknownAgent(agent);
  const read = owner.agent.readCall(payload, entryEvent(event));
  const call: AgentCall | undefined = 'problem' in read ? undefined : read;
  return hookAnswer(owner.agent.writeFailure(call, reason));
}

function withinDeadline(answer: Promise<WireAnswer>, owner: AgentPreset): Promise<WireAnswer> {
  const ms = owner.agent.bridgeDeadlineMs;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CliError(
            'HOOKLINE_CLI_BRIDGE_DEADLINE',
            `its hooks did not decide within ${ms / 1000} s, the bridge's deadline; give slow hooks a timeout_ms below it`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
}

function bridgeInput(problem: string): CliError {
  return new CliError('HOOKLINE_CLI_BRIDGE_INPUT', problem);
}

function unknownAgent(agent: string): HookAnswer {
  return { exitCode: 2, stdout: '', stderr: `hookline serve: unknown agent "${agent}"; the call is refused.\n` };
}

function hookAnswer(wire: WireAnswer): HookAnswer {
  return { exitCode: wire.exitCode, stdout: wire.stdout ?? '', stderr: wire.stderr ?? '' };
}

// The path's event, for an agent whose payload does not name it; none when the path names none.
function entryEvent(event: string | undefined): string | undefined {
  return event === undefined || event === '' ? undefined : event;
}
