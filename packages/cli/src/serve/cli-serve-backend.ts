import { sep } from 'node:path';
import { builtInPresets } from '@hookline/core';
import type { LoadedConfig, ServeBackend, ServeRoute } from '@hookline/serve';
import type { CliIo } from '../cli-io.ts';
import { findConfigFiles } from '../config/find-config-files.ts';
import { loadSetup } from '../config/load-setup.ts';
import { createCliEngine } from '../create-cli-engine.ts';
import { chooseJournal } from '../journal/journal-path.ts';
import { emitAnswer, refusedEmitAnswer } from './emit-answer.ts';

// The profiles a project's config is read in: Hookline's own files ('': hookline.toml, and an agent's
// .agent/settings.toml), or a preset whose host keeps its own files (claude: .claude/settings*.json).
const PROFILES = ['', 'claude'] as const;

/**
 * The daemon's backend in the CLI: configs found, loaded and validated exactly as `hookline emit`
 * does for a command run in the project folder, and an engine per config with the same sandbox,
 * journal and tracing. Warnings of the loaded config go to the daemon's log.
 */
export function cliServeBackend(io: CliIo): ServeBackend {
  const candidates = (projectDir: string, profile: string): readonly string[] =>
    findConfigFiles(undefined, projectDir, io.env, profile === '' ? undefined : builtInPresets.get(profile)).searched;
  return {
    profileOf: (route: ServeRoute) =>
      route.kind === 'emit' ? (route.preset ?? '') : route.agent === 'claude' ? 'claude' : '',
    configCandidates: candidates,
    projectConfigFiles(projectDir) {
      const inside = `${projectDir}${sep}`;
      return [...new Set(PROFILES.flatMap((profile) => candidates(projectDir, profile)))].filter((file) =>
        file.startsWith(inside),
      );
    },
    load: (projectDir, profile) => loadProject({ ...io, cwd: projectDir }, profile),
    refuse: (route, _payload, reason) =>
      refusedEmitAnswer(route.event, route.kind === 'emit' ? route.preset : 'claude', reason),
  };
}

async function loadProject(io: CliIo, profile: string): Promise<LoadedConfig> {
  const preset = profile === '' ? undefined : profile;
  const setup = await loadSetup({ cwd: io.cwd, env: io.env, preset, runsHooks: true });
  const { engine, resumed } = await createCliEngine(setup, { io, journal: chooseJournal(undefined, io, setup.config) });
  const settling = new Set<Promise<unknown>>();
  const track = (settled: Promise<unknown>) => {
    const done = settled.catch(() => undefined).finally(() => settling.delete(done));
    settling.add(done);
  };
  return {
    answer: (route, payload, notice) =>
      emitAnswer(
        engine,
        route.event === '' ? String(payload['hook_event_name'] ?? '') : route.event,
        payload,
        notice,
        track,
      ),
    async close() {
      await Promise.all([...settling]);
      await resumed().catch(() => undefined);
      await engine.close();
    },
  };
}
