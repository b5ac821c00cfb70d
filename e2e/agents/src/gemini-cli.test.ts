import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agentRequired, binaryProblem, type AgentProject } from './support/agent-project.ts';
import { GEMINI, geminiProject, runGemini } from './support/gemini-cli.ts';
import { geminiToolResults, startGeminiModel } from './support/gemini-model.ts';
import { BROKEN_GUARDS, GUARDS } from './support/guards.ts';
import type { MockModel } from './support/mock-model.ts';

// The real Gemini CLI, headless against a mock Gemini API on 127.0.0.1, with Hookline put into its
// project settings by `hookline install gemini`. Each test is its own project and run, so they run
// at once against the one mock.

const required = agentRequired('gemini');
const problem = binaryProblem(GEMINI);
if (problem !== undefined && !required)
  console.warn(`[gemini-cli.test.ts] Gemini CLI cannot run on this platform, so its tests are skipped: ${problem}`);

describe.runIf(problem === undefined || required)('Gemini CLI through hookline bridge gemini', () => {
  let model: MockModel;
  const projects: AgentProject[] = [];
  let runs = 0;

  beforeAll(async () => {
    if (problem !== undefined) throw new Error(`Gemini CLI is required here (CI=true) but cannot run: ${problem}`);
    model = await startGeminiModel();
  });
  afterAll(async () => {
    await model?.close();
    for (const project of projects) project.remove();
  });

  /** A project with `files`, Hookline installed with `install` arguments, and one run asking for `command`. */
  async function scenario(files: Record<string, string>, command: string, install: string[] = []) {
    const project = geminiProject(model.url, files);
    projects.push(project);
    await project.hookline('install', 'gemini', ...install);
    const id = `gemini-${++runs}`;
    const run = await runGemini(project, `Please RUN#${id}<<${command}>>`);
    const requests = model.requests(id);
    return {
      project,
      run,
      requests,
      results: requests.length === 0 ? '' : JSON.stringify(geminiToolResults(requests.at(-1)!)),
      marker: (name: string) => existsSync(join(project.dir, name)),
    };
  }

  test.concurrent("a guard blocks the shell call, and its reason reaches the model as the tool's error", async () => {
    // A new user's steps: the starter of `hookline init --preset agent`, then `hookline install gemini`.
    const project = geminiProject(model.url, {});
    projects.push(project);
    await project.hookline('init', '--preset', 'agent');
    await project.hookline('install', 'gemini');
    const id = `gemini-${++runs}`;
    const run = await runGemini(project, `Please RUN#${id}<<touch blocked-marker && rm -rf ./nothing>>`);
    expect(run.exitCode).toBe(0);
    expect(existsSync(join(project.dir, 'blocked-marker'))).toBe(false);
    expect(JSON.stringify(geminiToolResults(model.requests(id).at(-1)!))).toContain(
      'no rm -rf: delete files one by one',
    );
  });

  test.concurrent('an allowed call runs', async () => {
    const { marker, requests } = await scenario({ 'hookline.toml': GUARDS }, 'touch allowed-marker');
    expect(marker('allowed-marker')).toBe(true);
    expect(requests.length).toBe(2);
  });

  test.concurrent('a rewrite of the tool input (hookSpecificOutput.tool_input) takes effect', async () => {
    const { marker, results } = await scenario({ 'hookline.toml': GUARDS }, 'touch original-marker');
    expect(marker('rewritten-marker')).toBe(true);
    expect(marker('original-marker')).toBe(false);
    expect(results).toContain('Tool input parameters were modified by a hook');
  });

  test.concurrent('post-tool additionalContext reaches the model with the tool result', async () => {
    const { marker, results } = await scenario({ 'hookline.toml': GUARDS }, 'touch context-marker');
    expect(marker('context-marker')).toBe(true);
    expect(results).toContain('HOOKLINE-CONTEXT: the build is green');
  });

  test.concurrent('a broken config fails closed: the tool is refused with the reason', async () => {
    const { marker, results } = await scenario({ 'hookline.toml': BROKEN_GUARDS }, 'touch broken-marker');
    expect(marker('broken-marker')).toBe(false);
    expect(results).toContain("Hookline's hook configuration cannot be loaded");
  });

  test.concurrent("a config in Gemini CLI's own dialect (--preset gemini) works through the bridge", async () => {
    const geminiHooks = JSON.stringify({
      hooks: {
        BeforeTool: [
          {
            matcher: 'run_shell_command',
            hooks: [
              {
                type: 'command',
                command: `grep -q forbidden-marker && echo '{"decision":"deny","reason":"native guard says no"}' || true`,
                timeout: 5000,
              },
            ],
          },
        ],
      },
    });
    const { marker, project, results } = await scenario(
      { 'guards/gemini-hooks.json': geminiHooks },
      'touch forbidden-marker',
      ['--config', 'guards/gemini-hooks.json', '--preset', 'gemini'],
    );
    const settings = JSON.parse(readFileSync(join(project.dir, '.gemini/settings.json'), 'utf8'));
    // Gemini CLI's timeout is in milliseconds: above the bridge's deadline.
    expect(settings.hooks.BeforeTool[0].hooks[0].timeout).toBe(60_000);
    expect(marker('forbidden-marker')).toBe(false);
    expect(results).toContain('native guard says no');
  });
});
