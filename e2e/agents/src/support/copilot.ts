import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentProject, BIN, type AgentProject } from './agent-project.ts';
import { runAgent, type AgentRun } from './run-agent.ts';

export const COPILOT = join(BIN, 'copilot');

// Copilot unpacks its bundle (about 240 MB) under $XDG_CACHE_HOME/copilot on first start: one folder
// for every run, not one per temp HOME.
const CACHE = join(tmpdir(), 'hookline-e2e-copilot-cache');

/**
 * What keeps GitHub Copilot CLI on 127.0.0.1 (checked with strace under `unshare -n`: its one
 * connection is to the model): `COPILOT_OFFLINE=true` (no GitHub login, telemetry, web tools, GitHub
 * MCP server or update), the mock as a BYOK provider with any key, no auto-update.
 */
function offlineEnv(modelUrl: string): Record<string, string> {
  return {
    XDG_CACHE_HOME: CACHE,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'any',
    COPILOT_MODEL: 'gpt-4.1',
  };
}

/** Why `copilot --version` fails here, offline; undefined when it runs. */
export function copilotProblem(): string | undefined {
  const probe = spawnSync(COPILOT, ['--version'], {
    encoding: 'utf8',
    timeout: 180_000,
    env: { PATH: process.env['PATH'] ?? '', HOME: join(CACHE, 'home'), ...offlineEnv('http://127.0.0.1:9') },
  });
  if (probe.error !== undefined) return `\`copilot --version\` could not start: ${probe.error.message}`;
  if (probe.status !== 0) return `\`copilot --version\` exited ${probe.status}: ${probe.stderr.trim()}`;
  return undefined;
}

/**
 * A project for Copilot against the mock model at `modelUrl`, its state in the temp home
 * (`COPILOT_HOME`). `COPILOT_ALLOW_ALL=true` trusts the working directory, so that its
 * `.github/hooks/*.json` load in prompt mode.
 */
export function copilotProject(modelUrl: string, files: Readonly<Record<string, string>>): AgentProject {
  return agentProject('copilot', files, {}, ({ home }) => ({
    COPILOT_HOME: home,
    COPILOT_ALLOW_ALL: 'true',
    ...offlineEnv(modelUrl),
  }));
}

/** `copilot -p` in the project: every tool allowed, so only the hooks decide; stdin closed. */
export function runCopilot(project: AgentProject, prompt: string): Promise<AgentRun> {
  return runAgent(COPILOT, ['-p', prompt, '--allow-all-tools', '--disable-client-telemetry', '--no-auto-update'], {
    cwd: project.dir,
    env: project.env,
  });
}
