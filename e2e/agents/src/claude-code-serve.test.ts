import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  claudeProblem,
  claudeProject,
  claudeRequired,
  HOOKLINE,
  runClaude,
  type ClaudeProject,
} from './support/claude-code.ts';
import { startMockAnthropic, type MockAnthropic } from './support/mock-anthropic.ts';
import { toolResults } from './support/tool-results.ts';

// The real Claude Code binary with `type: "http"` hooks pointing at a real `hookline serve` daemon:
// Claude Code POSTs its payload with the token header, the daemon answers as the bridge would.

const problem = claudeProblem();
if (problem !== undefined && !claudeRequired)
  console.warn(
    `[claude-code-serve.test.ts] Claude Code cannot run on this platform, so its tests are skipped: ${problem}`,
  );

const GUARDS = `preset = "agent"

[[hooks]]
name = "no-rm-rf"
event = "pre_tool_use"
tool_name = "shell"
[hooks.action]
type = "shell"
command = '''grep -q 'rm -rf' && { echo "the daemon says: no rm -rf here" >&2; exit 2; } || exit 0'''
`;

describe.runIf(problem === undefined || claudeRequired)('Claude Code with type: "http" hooks → hookline serve', () => {
  let mock: MockAnthropic;
  let project: ClaudeProject;
  let env: NodeJS.ProcessEnv;
  let token: string;

  beforeAll(async () => {
    if (problem !== undefined) throw new Error(`Claude Code is required here (CI=true) but cannot run: ${problem}`);
    mock = await startMockAnthropic();
    project = claudeProject(mock.url, { 'hookline.toml': GUARDS });
    // The daemon's socket in the test's own runtime folder, never a shared one.
    env = { ...project.env, XDG_RUNTIME_DIR: join(project.home, 'run') };
    mkdirSync(join(project.home, 'run'), { mode: 0o700 });
    await trust();
    spawn(HOOKLINE, ['serve'], { cwd: project.dir, env, stdio: 'ignore' });
    const state = join(project.home, '.local', 'state', 'hookline');
    for (let waited = 0; !existsSync(join(state, 'serve.port')); waited += 100) {
      if (waited > 60_000) throw new Error('hookline serve did not start within 60 s');
      await delay(100);
    }
    const port = readFileSync(join(state, 'serve.port'), 'utf8').trim();
    token = readFileSync(join(state, 'serve-token'), 'utf8').trim();
    const hook = {
      type: 'http',
      url: `http://127.0.0.1:${port}/hooks/claude/PreToolUse`,
      headers: { Authorization: 'Bearer $HOOKLINE_TOKEN' },
      allowedEnvVars: ['HOOKLINE_TOKEN'],
      timeout: 60,
    };
    mkdirSync(join(project.dir, '.claude'), { recursive: true });
    writeFileSync(
      join(project.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [hook] }] } }, null, 2),
    );
    // Claude Code's settings are part of the project's hook configuration that trust covers: written
    // after the first `hookline trust`, they are a change to review and trust again, as a user does
    // (docs/serve.md); until then the daemon refuses the calls.
    await trust();
  });

  async function trust() {
    const trusted = spawn(HOOKLINE, ['trust'], { cwd: project.dir, env, stdio: 'ignore' });
    const [code] = (await once(trusted, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`hookline trust exited with ${String(code)}`);
  }

  afterAll(async () => {
    if (project !== undefined) {
      const stop = spawn(HOOKLINE, ['serve', 'stop'], { cwd: project.dir, env, stdio: 'ignore' });
      await new Promise((resolve) => stop.on('exit', resolve));
      project.remove();
    }
    await mock?.close();
  });

  async function scenario(command: string) {
    const key = mock.scenario({ command });
    const result = await runClaude(
      { ...project, env: { ...env, HOOKLINE_TOKEN: token } },
      `Run the command for ${key}.`,
    );
    return { result, requests: mock.requests(key), marker: (name: string) => existsSync(join(project.dir, name)) };
  }

  test('a guard blocks the shell call, and its reason reaches the model', async () => {
    const { result, requests, marker } = await scenario('touch served-blocked-marker && rm -rf ./nothing');
    expect(result.exitCode).toBe(0);
    expect(marker('served-blocked-marker')).toBe(false);
    expect(toolResults(requests).join('\n')).toContain('the daemon says: no rm -rf here');
  });

  test('an allowed call runs', async () => {
    const { marker, requests } = await scenario('touch served-allowed-marker');
    expect(marker('served-allowed-marker')).toBe(true);
    expect(requests.length).toBe(2);
  });

  test('the daemon answered the calls (its status counts them)', async () => {
    const status = spawn(HOOKLINE, ['serve', 'status', '--json'], { cwd: project.dir, env });
    let text = '';
    status.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    await new Promise((resolve) => status.on('exit', resolve));
    const projects = (JSON.parse(text) as { projects: Array<{ project: string; answered: number }> }).projects;
    expect(projects.reduce((sum, entry) => sum + entry.answered, 0)).toBeGreaterThanOrEqual(2);
  });
});
