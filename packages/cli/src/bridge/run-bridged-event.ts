import {
  findEvent,
  type AgentAdapter,
  type AgentCall,
  type BridgedEvent,
  type BridgeForm,
  type EmitOutcome,
  type HookEngine,
  type Preset,
  type WireAnswer,
} from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';
import type { Setup } from '../config/load-setup.ts';
import { createCliEngine } from '../create-cli-engine.ts';
import { chooseJournal } from '../journal/journal-path.ts';
import { printSetupWarnings, printWarnings } from '../print-warnings.ts';

/** One agent call to run through a loaded setup. */
export interface BridgedRun {
  /** The preset that owns the agent's adapter. */
  readonly owner: Preset & { readonly agent: AgentAdapter };
  readonly call: AgentCall;
  readonly setup: Setup;
  /** `--journal`. */
  readonly journal: string | undefined;
  /** Where warnings go: stderr (the agent reads stdout). */
  readonly io: CliIo;
  /** Called with a way to close the engine (ending every hook's process group) once it exists. */
  onEngine(close: () => Promise<void>): void;
}

/**
 * Emits the call as the event of the config's preset — the agent's own (`native`) or the canonical
 * agent events — exactly as `hookline emit` does (sandbox, journal, tracing), waits for every hook,
 * and writes the outcome in the agent's wire format. An event the config's preset has no equivalent
 * of runs nothing and answers that nothing was decided.
 */
export async function runBridgedEvent(run: BridgedRun): Promise<WireAnswer> {
  const { setup, io } = run;
  printSetupWarnings(setup, io);
  const { owner, call } = run;
  // No config anywhere: nothing to guard with (the warning says where it looked); doctor reports it.
  if (setup.files.length === 0 && io.env[DOCTOR_VARIABLE] === '1')
    reportToDoctor(io, setup, 'native', unmapped(call), nothingDecided(call));
  const plan = planBridgedCall(owner, call, setup);
  if ('answer' in plan) return plan.answer;
  const { engine, resumed } = await createCliEngine(setup, {
    io,
    journal: chooseJournal(run.journal, io, setup.config),
  });
  run.onEngine(() => engine.close());
  try {
    const answer = await answerOnEngine({ ...plan, owner: run.owner, call: run.call, setup, engine, io });
    await resumed();
    return answer;
  } finally {
    await resumed().catch(() => undefined);
    await engine.close();
  }
}

/** Which event a call is in the config's preset, or the answer when it is none of them. */
export type BridgePlan =
  { readonly form: BridgeForm; readonly bridged: BridgedEvent } | { readonly answer: WireAnswer };

/** The call as an event of the config's preset (throws when the preset is not an agent's). */
export function planBridgedCall(
  owner: Preset & { readonly agent: AgentAdapter },
  call: AgentCall,
  setup: Setup,
): BridgePlan {
  const adapter = owner.agent;
  if (setup.files.length === 0)
    return {
      answer: adapter.writeAnswer({ call, form: 'native', outcome: nothingDecided(call), event: unmapped(call) }),
    };
  const preset = setup.presets.get(setup.config.preset)!;
  const form = bridgeForm(preset, owner, setup);
  const bridged = form === 'native' ? adapter.nativeEvent(call) : adapter.canonicalEvent(call);
  if (bridged === undefined || findEvent(preset, bridged.event) === undefined)
    return {
      answer: adapter.writeAnswer({ call, form, outcome: nothingDecided(call), event: bridged ?? unmapped(call) }),
    };
  return { form, bridged };
}

/** One planned call run on an engine that is already open: the bridge's and `hookline serve`'s shared core. */
export interface EngineRun {
  readonly owner: Preset & { readonly agent: AgentAdapter };
  readonly call: AgentCall;
  readonly setup: Setup;
  readonly form: BridgeForm;
  readonly bridged: BridgedEvent;
  readonly engine: HookEngine;
  /** Where warnings go (the bridge: stderr; the daemon: its log). */
  readonly io: CliIo;
  /** A line the agent shows besides the hooks' own system messages (the daemon: a reload that failed). */
  readonly notice?: string | undefined;
}

/**
 * Emits the planned event exactly as `hookline emit` does, waits for every hook (so the answer is the
 * same whether a bridge process or the daemon runs it, and nothing is left running), and writes the
 * outcome in the agent's wire format.
 */
export async function answerOnEngine(run: EngineRun): Promise<WireAnswer> {
  const { owner, call, setup, form, bridged, io } = run;
  const pending = await run.engine.emit(bridged.event, bridged.context);
  const settled = await pending.settled;
  printWarnings(settled.warnings, io);
  if (io.env[DOCTOR_VARIABLE] === '1') reportToDoctor(io, setup, form, bridged, settled);
  const outcome =
    run.notice === undefined
      ? settled
      : { ...settled, system_messages: [...(settled.system_messages ?? []), run.notice] };
  return owner.agent.writeAnswer({ call, form, outcome: withReason(outcome), event: bridged });
}

/** Set by `hookline doctor`: the bridge then reports what it ran on stderr, one line starting {@link DOCTOR_PREFIX}. */
export const DOCTOR_VARIABLE = 'HOOKLINE_DOCTOR';
export const DOCTOR_PREFIX = 'hookline-doctor: ';

/** What `hookline doctor` learns from the bridge it ran. */
export interface DoctorReport {
  readonly configFiles: readonly string[];
  readonly preset: string;
  readonly form: BridgeForm;
  readonly event: string;
  readonly hooks: ReadonlyArray<{ readonly name: string; readonly status: string }>;
  readonly decision: string;
}

function reportToDoctor(io: CliIo, setup: Setup, form: BridgeForm, bridged: BridgedEvent, outcome: EmitOutcome): void {
  const report: DoctorReport = {
    configFiles: setup.files.map((file) => file.file.path),
    preset: setup.config.preset,
    form,
    event: bridged.event,
    hooks: outcome.hooks.map((hook) => ({ name: hook.name, status: hook.status })),
    decision: outcome.decision,
  };
  io.stderr.write(`${DOCTOR_PREFIX}${JSON.stringify(report)}\n`);
}

/**
 * The config's preset is the agent's own, or the canonical one every agent maps onto; any other (a
 * workflow engine's) has no event an agent's call could be: an error naming the presets that work.
 */
export function bridgeForm(preset: Preset, owner: Preset, setup: Setup): BridgeForm {
  if (preset.name === owner.name) return 'native';
  if (preset.canonicalAgentEvents === true) return 'canonical';
  const canonical = setup.presets.all.filter((candidate) => candidate.canonicalAgentEvents === true);
  throw new CliError(
    'HOOKLINE_CLI_BRIDGE_PRESET',
    `the config is written for preset "${preset.name}", whose events ${owner.agent!.title} does not have; write it for preset ${[...canonical.map((candidate) => `"${candidate.name}"`), `"${owner.name}"`].join(' or ')} (preset = "…")`,
  );
}

// A refusal always says why, even when the hook that refused gave no reason.
function withReason(outcome: EmitOutcome): EmitOutcome {
  if (outcome.decision !== 'block' || (outcome.reason ?? '').trim() !== '') return outcome;
  return { ...outcome, reason: `blocked by Hookline hook "${outcome.decided_by ?? 'unknown'}"` };
}

function nothingDecided(call: AgentCall): EmitOutcome {
  return { event: call.agentEvent, decision: 'proceed', hooks: [], warnings: [] };
}

function unmapped(call: AgentCall): BridgedEvent {
  return { event: call.agentEvent, context: { ...call.payload } };
}
