import { sep } from 'node:path';
import { builtInPresets } from '@hookline/core';
import type { JsonLog, LoadedConfig, ServeBackend } from '@hookline/serve';
import type { CliIo, CliOutput } from '../cli-io.ts';
import { findConfigFiles } from '../config/find-config-files.ts';
import { loadSetup } from '../config/load-setup.ts';
import { createCliEngine } from '../create-cli-engine.ts';
import { chooseJournal } from '../journal/journal-path.ts';
import { answerAgentCall, refuseAgentCall } from './bridge-answer-on-engine.ts';
import { emitAnswer, refusedEmitAnswer } from './emit-answer.ts';
import { profileOf, readProfile } from './serve-profile.ts';

// Hookline's own files (no preset named) and every preset that reads an agent's own settings, which
// that agent keeps in the project: what `hookline trust` hashes.
const TRUSTED_PRESETS: ReadonlyArray<string | undefined> = [
  undefined,
  ...builtInPresets.all.filter((preset) => preset.agent !== undefined).map((preset) => preset.name),
];

/**
 * The daemon's backend in the CLI: configs found, loaded and validated exactly as `hookline bridge`
 * (agent calls) or `hookline emit` (plain emits) do for a command run in the project folder, an engine
 * per config with the same sandbox, journal and tracing, and agents answered by the bridge's own code.
 * What hooks and the engine would print (warnings, a journal's resume report) goes to the log.
 */
export function cliServeBackend(io: CliIo, log: JsonLog): ServeBackend {
  const candidates = (projectDir: string, preset: string | undefined): readonly string[] =>
    findConfigFiles(undefined, projectDir, io.env, preset === undefined ? undefined : builtInPresets.get(preset))
      .searched;
  const logged = (level: 'info' | 'warn'): CliOutput => ({
    write: (text: string) => log[level]('output', { text: String(text).trimEnd() }),
  });
  return {
    profileOf,
    configCandidates: (projectDir, profile) => candidates(projectDir, readProfile(profile).preset),
    projectConfigFiles(projectDir) {
      const inside = `${projectDir}${sep}`;
      const files = TRUSTED_PRESETS.flatMap((preset) => candidates(projectDir, preset));
      return [...new Set(files)].filter((file) => file.startsWith(inside));
    },
    load: (projectDir, profile) =>
      loadProject({ ...io, cwd: projectDir, stdout: logged('info'), stderr: logged('warn'), quiet: true }, profile),
    refuse: (route, payload, reason) =>
      route.kind === 'bridge'
        ? refuseAgentCall(route.agent, payload, reason, route.event)
        : refusedEmitAnswer(route.event, route.preset, reason),
  };
}

async function loadProject(io: CliIo, profile: string): Promise<LoadedConfig> {
  const { kind, preset } = readProfile(profile);
  const setup = await loadSetup({
    cwd: io.cwd,
    env: io.env,
    preset,
    runsHooks: true,
    guardsFailClosed: kind === 'bridge',
    skipsBridgeEntries: kind === 'bridge',
  });
  const { engine, resumed } = await createCliEngine(setup, { io, journal: chooseJournal(undefined, io, setup.config) });
  const settling = new Set<Promise<unknown>>();
  const track = (settled: Promise<unknown>) => {
    const done = settled.catch(() => undefined).finally(() => settling.delete(done));
    settling.add(done);
  };
  return {
    answer: (route, payload, notice) =>
      route.kind === 'bridge'
        ? answerAgentCall({ agent: route.agent, event: route.event, payload, setup, engine, io, notice })
        : emitAnswer(engine, route.event, payload, notice, track),
    async close() {
      await Promise.all([...settling]);
      await resumed().catch(() => undefined);
      await engine.close();
    },
  };
}
