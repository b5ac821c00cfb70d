import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The package's node_modules/.bin: the real `claude` binary and the workspace's built `hookline`. */
export const BIN = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));
export const CLAUDE = join(BIN, 'claude');
export const HOOKLINE = join(BIN, 'hookline');

/** Whether the tests may skip when Claude Code cannot run here: not in CI, and not when asked to insist. */
export const claudeRequired = process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_CLAUDE'] === '1';

/** Why Claude Code's binary cannot run on this platform; undefined when it runs. */
export function claudeProblem(): string | undefined {
  const probe = spawnSync(CLAUDE, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.error !== undefined) return `\`claude --version\` could not start: ${probe.error.message}`;
  if (probe.status !== 0) return `\`claude --version\` exited ${probe.status}: ${probe.stderr.trim()}`;
  return undefined;
}

/** A project folder with its own HOME, for one Claude Code run. */
export interface ClaudeProject {
  readonly dir: string;
  readonly home: string;
  /** The environment Claude Code runs with: the mock's URL, a key, no other traffic, hookline on PATH. */
  readonly env: NodeJS.ProcessEnv;
  /** Runs `hookline <args>` in the project, as a user would. */
  hookline(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  remove(): void;
}

/** A temporary project holding `files` (relative path → text). */
export function claudeProject(modelUrl: string, files: Readonly<Record<string, string>>): ClaudeProject {
  const root = mkdtempSync(join(tmpdir(), 'hookline-claude-'));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const env: NodeJS.ProcessEnv = {
    PATH: `${BIN}${delimiter}${process.env['PATH'] ?? ''}`,
    HOME: home,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'anything',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // The user layer of Hookline's config is looked up under XDG_CONFIG_HOME: keep it in the temp HOME.
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  return {
    dir,
    home,
    env,
    hookline: (...args) => run(HOOKLINE, args, { cwd: dir, env, timeout: 60_000 }),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** What `claude -p` printed. */
export interface ClaudeResult {
  readonly exitCode: number;
  /** The run's result object (`type: "result"`): all of stdout in json, its last line in stream-json. */
  readonly result: Record<string, unknown> | undefined;
  /** In stream-json, every message Claude Code emitted, one a line; empty in json. */
  readonly messages: ReadonlyArray<Record<string, unknown>>;
  readonly stdout: string;
  readonly stderr: string;
}

/** How Claude Code is run. */
export interface ClaudeRunOptions {
  /**
   * The tools that run without a permission prompt (`--allowedTools`); `Bash` unless given. With
   * none, a call that needs approval fires PermissionRequest and, headless, is refused.
   */
  readonly allowedTools?: readonly string[];
  /** `--output-format stream-json --verbose`: what an interactive user would see, as messages. */
  readonly stream?: boolean;
}

/**
 * Runs Claude Code headless in the project: one prompt, the Bash tool allowed, stdin closed (an open
 * stdin makes \`claude -p\` wait for input first).
 */
export function runClaude(
  project: ClaudeProject,
  prompt: string,
  { allowedTools = ['Bash'], stream = false }: ClaudeRunOptions = {},
): Promise<ClaudeResult> {
  const args = [
    '-p',
    prompt,
    ...(allowedTools.length === 0 ? [] : ['--allowedTools', allowedTools.join(',')]),
    '--output-format',
    ...(stream ? ['stream-json', '--verbose'] : ['json']),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(CLAUDE, args, {
      cwd: project.dir,
      env: project.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const messages = stream ? stdout.split('\n').flatMap(lines) : [];
      const result = stream ? messages.findLast((message) => message['type'] === 'result') : parse(stdout);
      resolve({ exitCode: code ?? 1, result, messages, stdout, stderr });
    });
  });
}

function lines(text: string): Array<Record<string, unknown>> {
  const message = parse(text);
  return message === undefined ? [] : [message];
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
