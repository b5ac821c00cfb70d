import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agentRequired, binaryProblem, type AgentProject } from './support/agent-project.ts';
import { CODEX, codexProject, runCodex } from './support/codex.ts';
import { codexFollowUp, startCodexModel } from './support/codex-model.ts';
import { BROKEN_GUARDS, GUARDS } from './support/guards.ts';
import type { MockModel } from './support/mock-model.ts';

// The real Codex, `codex exec` against a mock Responses API on 127.0.0.1, with Hookline put into
// `.codex/hooks.json` by `hookline install codex`. Each test is its own project and run, so they run
// at once against the one mock.

const required = agentRequired('codex');
const problem = binaryProblem(CODEX);
if (problem !== undefined && !required)
  console.warn(`[codex.test.ts] Codex cannot run on this platform, so its tests are skipped: ${problem}`);

describe.runIf(problem === undefined || required)('Codex through hookline bridge codex', () => {
  let model: MockModel;
  const projects: AgentProject[] = [];
  let runs = 0;

  beforeAll(async () => {
    if (problem !== undefined) throw new Error(`Codex is required here (CI=true) but cannot run: ${problem}`);
    model = await startCodexModel();
  });
  afterAll(async () => {
    await model?.close();
    for (const project of projects) project.remove();
  });

  async function scenario(files: Record<string, string>, command: string, install: string[] = []) {
    const project = codexProject(model.url, files);
    projects.push(project);
    await project.hookline('install', 'codex', ...install);
    const id = `codex-${++runs}`;
    const run = await runCodex(project, `Please RUN#${id}<<${command}>>`);
    const requests = model.requests(id);
    const followUp = requests.length === 0 ? { outputs: [], developer: [] } : codexFollowUp(requests.at(-1)!);
    return {
      project,
      run,
      requests,
      outputs: followUp.outputs.join('\n'),
      developer: followUp.developer.join('\n'),
      marker: (name: string) => existsSync(join(project.dir, name)),
    };
  }

  test.concurrent("a guard blocks the shell call, and its reason reaches the model as the call's output", async () => {
    // A new user's steps: the starter of `hookline init --preset agent`, then `hookline install codex`.
    const project = codexProject(model.url, {});
    projects.push(project);
    await project.hookline('init', '--preset', 'agent');
    await project.hookline('install', 'codex');
    const id = `codex-${++runs}`;
    const run = await runCodex(project, `Please RUN#${id}<<touch blocked-marker && rm -rf ./nothing>>`);
    expect(run.exitCode).toBe(0);
    expect(existsSync(join(project.dir, 'blocked-marker'))).toBe(false);
    expect(codexFollowUp(model.requests(id).at(-1)!).outputs.join('\n')).toContain(
      'no rm -rf: delete files one by one',
    );
  });

  test.concurrent('an allowed call runs', async () => {
    const { marker, requests } = await scenario({ 'hookline.toml': GUARDS }, 'touch allowed-marker');
    expect(marker('allowed-marker')).toBe(true);
    expect(requests.length).toBe(2);
  });

  test.concurrent('a rewrite of the tool input (allow + updatedInput) takes effect', async () => {
    const { marker } = await scenario({ 'hookline.toml': GUARDS }, 'touch original-marker');
    expect(marker('rewritten-marker')).toBe(true);
    expect(marker('original-marker')).toBe(false);
  });

  test.concurrent("post-tool additionalContext reaches the model's next request as a developer message", async () => {
    const { marker, developer } = await scenario({ 'hookline.toml': GUARDS }, 'touch context-marker');
    expect(marker('context-marker')).toBe(true);
    expect(developer).toContain('HOOKLINE-CONTEXT: the build is green');
  });

  test.concurrent('a broken config fails closed: the tool is refused with the reason', async () => {
    const { marker, outputs } = await scenario({ 'hookline.toml': BROKEN_GUARDS }, 'touch broken-marker');
    expect(marker('broken-marker')).toBe(false);
    expect(outputs).toContain("Hookline's hook configuration cannot be loaded");
  });

  test.concurrent("a config in Codex's own hooks.json form (--preset codex) works through the bridge", async () => {
    const codexHooks = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `grep -q forbidden-marker && { echo 'native guard says no' >&2; exit 2; } || exit 0`,
              },
            ],
          },
        ],
      },
    });
    const { marker, project, outputs } = await scenario(
      { 'guards/codex-hooks.json': codexHooks },
      'touch forbidden-marker',
      ['--config', 'guards/codex-hooks.json', '--preset', 'codex'],
    );
    const settings = JSON.parse(readFileSync(join(project.dir, '.codex/hooks.json'), 'utf8'));
    // Codex's timeout is in seconds: above the bridge's deadline.
    expect(settings.hooks.PreToolUse[0].hooks[0].timeout).toBe(60);
    expect(marker('forbidden-marker')).toBe(false);
    expect(outputs).toContain('native guard says no');
  });
});
