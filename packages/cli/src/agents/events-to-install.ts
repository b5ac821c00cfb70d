import { messageOf, type AgentAdapter, type Preset } from '@hookline/core';
import type { CliIo } from '../cli-io.ts';
import { bridgeForm } from '../bridge/run-bridged-event.ts';
import { loadSetup } from '../config/load-setup.ts';

/** Which agent events get an entry, and why. */
export interface EventsToInstall {
  readonly events: readonly string[];
  /** Why every event gets one (no config found, or it does not load); absent when the config chose. */
  readonly allBecause?: string;
}

/**
 * The agent events whose equivalent in the config's preset has hooks: each entry costs the agent a
 * Hookline start on every such event, so only those are installed (a hook added later for another
 * event needs `install` again; `doctor` says so). Every event when the config cannot tell. Throws when
 * the config is written for a preset no agent call can reach.
 */
export async function eventsToInstall(
  owner: Preset & { readonly agent: AgentAdapter },
  config: { readonly files: readonly string[]; readonly preset: string | undefined },
  io: CliIo,
): Promise<EventsToInstall> {
  const all = owner.agent.settings.events;
  let setup;
  try {
    setup = await loadSetup({ configFiles: config.files, preset: config.preset, cwd: io.cwd, env: io.env });
  } catch (error) {
    return { events: all, allBecause: `the config does not load (${messageOf(error)})` };
  }
  if (setup.files.length === 0) return { events: all, allBecause: 'no Hookline config was found' };
  const preset = setup.presets.get(setup.config.preset)!;
  const form = bridgeForm(preset, owner, setup);
  const used = new Set(setup.config.hooks.filter((hook) => hook.enabled).map((hook) => hook.event));
  return { events: all.filter((event) => used.has(owner.agent.presetEvent(event, form) ?? '')) };
}
