import {
  findEvent,
  type AgentAdapter,
  type AgentCall,
  type BridgedEvent,
  type BridgeForm,
  type EmitOutcome,
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
  const { owner, call, setup, io } = run;
  const adapter = owner.agent;
  printSetupWarnings(setup, io);
  const preset = setup.presets.get(setup.config.preset)!;
  // No config anywhere: nothing to guard with (the warning says where it looked); doctor reports it.
  if (setup.files.length === 0) {
    if (io.env[DOCTOR_VARIABLE] === '1') reportToDoctor(io, setup, 'native', unmapped(call), nothingDecided(call));
    return adapter.writeAnswer({ call, form: 'native', outcome: nothingDecided(call), event: unmapped(call) });
  }
  const form = bridgeForm(preset, owner, setup);
  const bridged = form === 'native' ? adapter.nativeEvent(call) : adapter.canonicalEvent(call);
  if (bridged === undefined || findEvent(preset, bridged.event) === undefined)
    return adapter.writeAnswer({ call, form, outcome: nothingDecided(call), event: bridged ?? unmapped(call) });
  const { engine, resumed } = await createCliEngine(setup, {
    io,
    journal: chooseJournal(run.journal, io, setup.config),
  });
  run.onEngine(() => engine.close());
  try {
    const pending = await engine.emit(bridged.event, bridged.context);
    // Every hook has ended before the answer: the bridge leaves no process behind.
    const outcome = await pending.settled;
    printWarnings(outcome.warnings, io);
    if (io.env[DOCTOR_VARIABLE] === '1') reportToDoctor(io, setup, form, bridged, outcome);
    await resumed();
    return adapter.writeAnswer({ call, form, outcome: withReason(outcome), event: bridged });
  } finally {
    await resumed().catch(() => undefined);
    await engine.close();
  }
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

// The config's preset is the agent's own, or the canonical one every agent maps onto; any other
// (a workflow engine's) has no event an agent's call could be.
function bridgeForm(preset: Preset, owner: Preset, setup: Setup): BridgeForm {
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
