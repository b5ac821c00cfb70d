import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { agentProject, BIN, type AgentProject } from './agent-project.ts';
import { runAgent, type AgentRun } from './run-agent.ts';

export const CODEX = join(BIN, 'codex');

/**
 * A project for Codex against the mock model at `modelUrl`: a CODEX_HOME whose `config.toml` names a
 * provider with `wire_api = "responses"`, turns plugins and analytics off (else it looks up hosts) and
 * trusts the project, so that its `.codex/hooks.json` loads.
 */
export function codexProject(modelUrl: string, files: Readonly<Record<string, string>>): AgentProject {
  const config = (dir: string) =>
    [
      'model = "gpt-5"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${modelUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
      '[features]',
      'plugins = false',
      '[analytics]',
      'enabled = false',
      `[projects.${JSON.stringify(dir)}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n');
  const project = agentProject('codex', files, {}, ({ home }) => ({ CODEX_HOME: home, OPENAI_API_KEY: 'any' }));
  // The project's own path goes into the config: written once the folder exists.
  agentProjectConfig(project, config(project.dir));
  return project;
}

/** `codex exec` in the project: hooks trusted for this run, approvals and sandbox off, stdin closed. */
export function runCodex(project: AgentProject, prompt: string): Promise<AgentRun> {
  return runAgent(
    CODEX,
    [
      'exec',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--dangerously-bypass-hook-trust',
      '-C',
      project.dir,
      prompt,
    ],
    { cwd: project.dir, env: project.env },
  );
}

function agentProjectConfig(project: AgentProject, text: string): void {
  writeFileSync(join(project.home, 'config.toml'), text);
}
