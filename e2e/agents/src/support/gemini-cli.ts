import { join } from 'node:path';
import { agentProject, BIN, type AgentProject } from './agent-project.ts';
import { runAgent, type AgentRun } from './run-agent.ts';

export const GEMINI = join(BIN, 'gemini');

/**
 * A project for Gemini CLI against the mock model at `modelUrl`: user settings with API-key auth and
 * no usage statistics (else it looks up hosts), the workspace trusted so that project hooks load.
 */
export function geminiProject(modelUrl: string, files: Readonly<Record<string, string>>): AgentProject {
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
  };
  return agentProject('gemini', files, { '.gemini/settings.json': JSON.stringify(settings) }, () => ({
    GOOGLE_GEMINI_BASE_URL: modelUrl,
    GEMINI_API_KEY: 'any',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  }));
}

/** `gemini -p <prompt> --yolo -m gemini-2.5-flash` in the project (with `-m`, no routing model is called). */
export function runGemini(project: AgentProject, prompt: string): Promise<AgentRun> {
  return runAgent(GEMINI, ['-p', prompt, '--yolo', '-m', 'gemini-2.5-flash'], { cwd: project.dir, env: project.env });
}
