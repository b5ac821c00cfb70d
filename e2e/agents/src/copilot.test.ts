import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agentRequired, type AgentProject } from './support/agent-project.ts';
import { copilotProblem, copilotProject, runCopilot } from './support/copilot.ts';
import { copilotFollowUp, startCopilotModel } from './support/copilot-model.ts';
import { BROKEN_GUARDS, GUARDS } from './support/guards.ts';
import type { MockModel } from './support/mock-model.ts';

// The real GitHub Copilot CLI, `copilot -p` against a mock Chat Completions API on 127.0.0.1 (a BYOK
// provider, offline mode), with Hookline put into `.github/hooks/hookline.json` by
// `hookline install copilot`. Each test is its own project and run, so they run at once against the one mock.

const required = agentRequired('copilot');
const problem = copilotProblem();
if (problem !== undefined && !required)
  console.warn(`[copilot.test.ts] Copilot cannot run on this platform, so its tests are skipped: ${problem}`);

describe.runIf(problem === undefined || required)('GitHub Copilot CLI through hookline bridge copilot', () => {
  let model: MockModel;
  const projects: AgentProject[] = [];
  let runs = 0;

  beforeAll(async () => {
    if (problem !== undefined) throw new Error(`Copilot is required here (CI=true) but cannot run: ${problem}`);
    model = await startCopilotModel();
  });
  afterAll(async () => {
    await model?.close();
    for (const project of projects) project.remove();
  });

  async function scenario(files: Record<string, string>, command: string, install: string[] = []) {
    const project = copilotProject(model.url, files);
    projects.push(project);
    await project.hookline('install', 'copilot', ...install);
    const id = `copilot-${++runs}`;
    const run = await runCopilot(project, `Please RUN#${id}<<${command}>>`);
    const requests = model.requests(id);
    const followUp = requests.length === 0 ? { tools: [], user: [] } : copilotFollowUp(requests.at(-1)!);
    return {
      project,
      run,
      requests,
      tools: followUp.tools.join('\n'),
      user: followUp.user.join('\n'),
      marker: (name: string) => existsSync(join(project.dir, name)),
    };
  }

  test.concurrent("a guard blocks the shell call, and its reason reaches the model as the call's result", async () => {
    // A new user's steps: the starter of `hookline init --preset agent`, then `hookline install copilot`.
    const project = copilotProject(model.url, {});
    projects.push(project);
    await project.hookline('init', '--preset', 'agent');
    await project.hookline('install', 'copilot');
    const id = `copilot-${++runs}`;
    const run = await runCopilot(project, `Please RUN#${id}<<touch blocked-marker && rm -rf ./nothing>>`);
    expect(run.exitCode).toBe(0);
    expect(existsSync(join(project.dir, 'blocked-marker'))).toBe(false);
    expect(copilotFollowUp(model.requests(id).at(-1)!).tools.join('\n')).toContain(
      'Denied by preToolUse hook: no rm -rf: delete files one by one',
    );
  });

  test.concurrent('an allowed call runs', async () => {
    const { marker, requests } = await scenario({ 'hookline.toml': GUARDS }, 'touch allowed-marker');
    expect(marker('allowed-marker')).toBe(true);
    expect(requests.length).toBe(2);
  });

  test.concurrent('a rewrite of the tool input (allow + modifiedArgs) takes effect', async () => {
    const { marker } = await scenario({ 'hookline.toml': GUARDS }, 'touch original-marker');
    expect(marker('rewritten-marker')).toBe(true);
    expect(marker('original-marker')).toBe(false);
  });

  test.concurrent("post-tool additionalContext reaches the model with the tool's result", async () => {
    const { marker, tools } = await scenario({ 'hookline.toml': GUARDS }, 'touch context-marker');
    expect(marker('context-marker')).toBe(true);
    expect(tools).toContain('HOOKLINE-CONTEXT: the build is green');
  });

  test.concurrent('a broken config fails closed: the tool is refused with the reason', async () => {
    const { marker, tools } = await scenario({ 'hookline.toml': BROKEN_GUARDS }, 'touch broken-marker');
    expect(marker('broken-marker')).toBe(false);
    expect(tools).toContain("Hookline's hook configuration cannot be loaded");
  });

  test.concurrent("a config in Copilot's own hooks-file form (--preset copilot) works through the bridge", async () => {
    const copilotHooks = JSON.stringify({
      version: 1,
      hooks: {
        preToolUse: [
          {
            type: 'command',
            bash: `grep -q forbidden-marker && echo '{"permissionDecision":"deny","permissionDecisionReason":"native guard says no"}' || exit 0`,
            timeoutSec: 10,
          },
        ],
      },
    });
    const { marker, project, tools } = await scenario(
      { 'guards/copilot-hooks.json': copilotHooks },
      'touch forbidden-marker',
      ['--config', 'guards/copilot-hooks.json', '--preset', 'copilot'],
    );
    const settings = JSON.parse(readFileSync(join(project.dir, '.github/hooks/hookline.json'), 'utf8'));
    // Copilot runs the tool when a hook times out: the entry's timeoutSec is above the bridge's deadline.
    expect(settings.hooks.preToolUse[0].timeoutSec).toBe(60);
    expect(marker('forbidden-marker')).toBe(false);
    expect(tools).toContain('native guard says no');
  });
});
