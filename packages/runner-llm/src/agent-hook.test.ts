// Agent hooks against the real SDK and a local Messages API: the tool loop, every tool, answers,
// rounds, and the confinement of file tools to the working directory.
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { localSandbox } from '@hookline/runner-command';
import { describe, expect, test } from 'vitest';
import { emitHook } from '../test-support/hooks.ts';
import { clientFor, finalText, message, scripted, text, toolResults, toolUse } from '../test-support/messages-api.ts';
import { useMessagesApi } from '../test-support/use-messages-api.ts';
import { scratchDirectory } from '../test-support/scratch.ts';
import { llmRunner } from './llm-runner.ts';

// Longer than the package's test timeout (vitest.config.ts): a wait this long fails the test instead.
const OUTLASTS_THE_TEST_MS = 120_000;

/** Whether a process with this pid exists (signal 0 only asks). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const api = useMessagesApi();

const runner = () => llmRunner({ client: clientFor(api) });

describe('answers', () => {
  test('a final answer inside a ```json fence is read; no tools were needed', async () => {
    api.respond(scripted(finalText('```json\n{"ok": false, "reason": "the changelog is missing"}\n```')));
    const report = await emitHook(runner(), { type: 'agent', prompt: 'Is there a changelog?' });
    expect(report).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'the changelog is missing' },
      rounds: 1,
      tool_calls: 0,
    });
  });

  test('the request carries the agent’s tools and the same user turn as a prompt hook', async () => {
    api.respond(scripted(finalText('{"ok": true}')));
    await emitHook(runner(), { type: 'agent', prompt: 'Look around.', max_tool_rounds: 7 });
    const body = api.requests[0]?.body;
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'shell',
      'read_file',
      'write_file',
      'grep',
      'glob',
    ]);
    expect(body.tool_choice).toBeUndefined();
    expect(body.system).toMatch(/hook evaluator for a workflow engine.*at most 7 rounds of tool calls/s);
    expect(body.messages[0].content).toMatch(
      /^Hook prompt: Look around\.\n\nEvent context \(JSON\):\n\{"event":"stage_start"/,
    );
  });

  test('prose instead of the JSON answer fails (fail-open by default)', async () => {
    api.respond(scripted(finalText('I looked around and everything seems fine, so I would say ok.')));
    const report = await emitHook(runner(), { type: 'agent', prompt: 'Look around.' });
    expect(report).toMatchObject({ status: 'failed', decision: { decision: 'proceed' } });
    expect(report.error).toMatch(/^unparseable answer: expected only a JSON object .*"I looked around/);
  });

  test('JSON with prose around it is not guessed at', async () => {
    api.respond(scripted(finalText('Here is my answer: {"ok": true}')));
    const report = await emitHook(runner(), { type: 'agent', prompt: 'Look around.', on_error: 'block' });
    expect(report).toMatchObject({ status: 'failed', decision: { decision: 'block' } });
  });
});

describe('the tool loop', () => {
  test('an agent that calls every tool gets each result back in the next request, then answers', async () => {
    const cwd = await scratchDirectory('tools');
    await mkdir(join(cwd, 'src'));
    await writeFile(join(cwd, 'src', 'main.ts'), 'export const answer = 42;\n// TODO: remove the debug flag\n');
    await writeFile(join(cwd, 'README.md'), '# Demo project\n');
    const write = toolUse('write_file', { path: 'notes/out.txt', content: 'written by the agent' });
    const reads = [toolUse('read_file', { path: 'notes/out.txt' }), toolUse('read_file', { path: 'README.md' })];
    const shell = toolUse('shell', { command: 'cat notes/out.txt; echo " on stdout"; echo to-stderr >&2; exit 3' });
    const grep = toolUse('grep', { pattern: 'TODO', include: '**/*.ts' });
    const glob = toolUse('glob', { pattern: '**/*.{ts,txt}' });
    api.respond(
      scripted(
        message([text('I will write a note first.'), write]),
        message(reads),
        message([shell]),
        message([grep]),
        message([glob]),
        finalText('```\n{"ok": false, "reason": "a TODO is left in src/main.ts"}\n```'),
      ),
    );
    const report = await emitHook(runner(), { type: 'agent', prompt: 'Check for leftovers.' }, { context: { cwd } });

    expect(report).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'a TODO is left in src/main.ts' },
      rounds: 6,
      tool_calls: 6,
      usage: { input_tokens: 600, output_tokens: 120 },
    });
    expect(await readFile(join(cwd, 'notes', 'out.txt'), 'utf8')).toBe('written by the agent');
    const [, afterWrite, afterReads, afterShell, afterGrep, afterGlob] = api.requests;
    expect(toolResults(afterWrite)).toEqual([
      { type: 'tool_result', tool_use_id: write.id, content: 'wrote 20 bytes to notes/out.txt' },
    ]);
    // The assistant turn went back as it came, so the ids pair up.
    expect(afterWrite?.body.messages[1]).toEqual({
      role: 'assistant',
      content: [text('I will write a note first.'), write],
    });
    expect(toolResults(afterReads)).toEqual([
      { type: 'tool_result', tool_use_id: reads[0]!.id, content: 'written by the agent' },
      { type: 'tool_result', tool_use_id: reads[1]!.id, content: '# Demo project\n' },
    ]);
    const [shellResult] = toolResults(afterShell);
    expect(shellResult).toMatchObject({ tool_use_id: shell.id, is_error: true });
    expect(shellResult?.content).toBe(
      'exit code 3 (ran in the host session)\nstdout:\nwritten by the agent on stdout\n\nstderr:\nto-stderr\n',
    );
    expect(toolResults(afterGrep)).toEqual([
      { type: 'tool_result', tool_use_id: grep.id, content: 'src/main.ts:2: // TODO: remove the debug flag' },
    ]);
    expect(toolResults(afterGlob)).toEqual([
      { type: 'tool_result', tool_use_id: glob.id, content: 'notes/out.txt\nsrc/main.ts' },
    ]);
  });

  test('an agent still calling tools after max_tool_rounds fails', async () => {
    const cwd = await scratchDirectory('rounds');
    api.respond(() => message([toolUse('glob', { pattern: '*' })]));
    const report = await emitHook(
      runner(),
      { type: 'agent', prompt: 'Loop forever.', max_tool_rounds: 3 },
      { context: { cwd } },
    );
    expect(report).toMatchObject({ status: 'failed', decision: { decision: 'proceed' }, rounds: 4, tool_calls: 3 });
    expect(report.error).toBe(
      'rounds exhausted: the agent was still calling tools after 3 tool rounds (max_tool_rounds = 3)',
    );
    expect(api.requests).toHaveLength(4);
  });

  test('an unknown tool and bad input are error results, not failures of the hook', async () => {
    const cwd = await scratchDirectory('unknown');
    const unknown = toolUse('delete_everything', {});
    const bad = toolUse('read_file', { file: 'x' });
    api.respond(scripted(message([unknown, bad]), finalText('{"ok": true}')));
    const report = await emitHook(runner(), { type: 'agent', prompt: 'Try things.' }, { context: { cwd } });
    expect(report.status).toBe('ok');
    expect(toolResults(api.requests[1])).toEqual([
      {
        type: 'tool_result',
        tool_use_id: unknown.id,
        is_error: true,
        content: 'unknown tool "delete_everything"; the tools are shell, read_file, write_file, grep, glob',
      },
      { type: 'tool_result', tool_use_id: bad.id, is_error: true, content: 'read_file needs {"path": "<file path>"}' },
    ]);
  });

  test('a regular expression with catastrophic backtracking cannot freeze the host: the deadline still ends the hook', async () => {
    const cwd = await scratchDirectory('redos');
    await writeFile(join(cwd, 'input.txt'), `${'a'.repeat(48)}!\n`);
    api.respond(scripted(message([toolUse('grep', { pattern: '^(a+)+$' })]), finalText('{"ok": true}')));
    // close() waits for the runner longer than the test may take: the test ends only if the deadline
    // really stopped the search (a frozen host would not even report the timeout).
    const report = await emitHook(
      runner(),
      { type: 'agent', prompt: 'Search.', timeout_ms: 1_500 },
      { context: { cwd }, closeGraceMs: OUTLASTS_THE_TEST_MS },
    );
    expect(report).toMatchObject({ status: 'timed_out', error: 'hook timed out after 1500 ms' });
  });

  test('a cwd that does not exist fails the hook before any request', async () => {
    const report = await emitHook(
      runner(),
      { type: 'agent', prompt: 'Look around.' },
      { context: { cwd: '/nonexistent/hookline-agent-dir' } },
    );
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(/the working directory "\/nonexistent\/hookline-agent-dir" cannot be used/);
    expect(api.requests).toHaveLength(0);
  });
});

// The same confinement on both sides: the host's directory, and (sandbox = true) the local sandbox's
// session, where every file tool is an exec of a shell program.
const sides = [
  { side: 'on the host', sandbox: undefined },
  { side: 'through the local sandbox', sandbox: localSandbox },
] as const;

describe.each(sides)('file tools stay inside the working directory $side', ({ sandbox }) => {
  const where = () => (sandbox === undefined ? {} : { sandbox: sandbox() });

  test('../../etc/passwd, an absolute path and a symlink out are refused as error results; nothing leaks', async () => {
    const outside = await scratchDirectory('outside');
    await writeFile(join(outside, 'secret.txt'), 'TOP-SECRET-CONTENT\n');
    const cwd = await scratchDirectory('inside');
    await mkdir(join(cwd, 'a', 'b'), { recursive: true });
    await symlink(join(outside, 'secret.txt'), join(cwd, 'link-to-secret'));
    await symlink(outside, join(cwd, 'link-to-outside'));
    const attempts = [
      toolUse('read_file', { path: '../../etc/passwd' }),
      toolUse('read_file', { path: 'a/b/../../../../../../etc/passwd' }),
      toolUse('read_file', { path: '/etc/passwd' }),
      toolUse('read_file', { path: 'link-to-secret' }),
      toolUse('read_file', { path: 'link-to-outside/secret.txt' }),
      toolUse('write_file', { path: 'link-to-outside/planted.txt', content: 'x' }),
      toolUse('write_file', { path: '../planted.txt', content: 'x' }),
      toolUse('grep', { pattern: 'TOP-SECRET' }),
      toolUse('grep', { pattern: 'root', path: '/etc' }),
      toolUse('glob', { pattern: '../*' }),
      toolUse('glob', { pattern: '**/*' }),
    ];
    api.respond(scripted(message(attempts), finalText('{"ok": true}')));
    const report = await emitHook(
      runner(),
      { type: 'agent', prompt: 'Try to escape.' },
      { context: { cwd }, ...where() },
    );
    expect(report.status).toBe('ok');

    const results = toolResults(api.requests[1]);
    expect(results).toHaveLength(attempts.length);
    const refusals = results.slice(0, 7).concat(results[8]!, results[9]!);
    for (const result of refusals) {
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/^refused: .* is outside the working directory|^refused: the pattern/);
    }
    expect(results[3]?.content).toContain('through a symbolic link');
    // Searching the directory neither follows nor lists the links that lead out.
    expect(results[7]).toMatchObject({ content: 'no matches' });
    expect(results[10]).toMatchObject({ content: 'no files match' });
    // Only the results: the assistant turn echoes the model's own grep pattern.
    const sent = JSON.stringify(results);
    expect(sent).not.toContain('TOP-SECRET');
    expect(sent).not.toContain('root:x:0:0');
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(join(cwd, '..', 'planted.txt'))).toBe(false);
  });

  test('a symlink that stays inside is followed', async () => {
    const cwd = await scratchDirectory('inner-link');
    await writeFile(join(cwd, 'real.txt'), 'inner content');
    await symlink(join(cwd, 'real.txt'), join(cwd, 'alias.txt'));
    const read = toolUse('read_file', { path: 'alias.txt' });
    api.respond(scripted(message([read]), finalText('{"ok": true}')));
    await emitHook(runner(), { type: 'agent', prompt: 'Read.' }, { context: { cwd }, ...where() });
    expect(toolResults(api.requests[1])).toEqual([
      { type: 'tool_result', tool_use_id: read.id, content: 'inner content' },
    ]);
  });
});

describe('shell', () => {
  // A credential-looking variable: the host shell sees it, the local sandbox scrubs it.
  const probe = 'printf "%s|%s" "${HOOKLINE_LLM_PROBE_API_KEY:-scrubbed}" "$(pwd)"';

  test('with sandbox = false the shell runs on the host, with the host environment, in the context cwd', async () => {
    const cwd = await scratchDirectory('host-shell');
    process.env['HOOKLINE_LLM_PROBE_API_KEY'] = 'visible-on-host';
    try {
      const shell = toolUse('shell', { command: probe });
      api.respond(scripted(message([shell]), finalText('{"ok": true}')));
      const report = await emitHook(runner(), { type: 'agent', prompt: 'Run.' }, { context: { cwd } });
      expect(report.status).toBe('ok');
      expect(toolResults(api.requests[1])[0]?.content).toBe(
        `exit code 0 (ran in the host session)\nstdout:\nvisible-on-host|${cwd}\nstderr:\n`,
      );
    } finally {
      delete process.env['HOOKLINE_LLM_PROBE_API_KEY'];
    }
  });

  test('with sandbox = true the shell runs in the local sandbox, credentials scrubbed', async () => {
    const cwd = await scratchDirectory('local-shell');
    process.env['HOOKLINE_LLM_PROBE_API_KEY'] = 'visible-on-host';
    try {
      const shell = toolUse('shell', { command: probe });
      api.respond(scripted(message([shell]), finalText('{"ok": true}')));
      const report = await emitHook(
        runner(),
        { type: 'agent', prompt: 'Run.' },
        { context: { cwd }, sandbox: localSandbox() },
      );
      expect(report.status).toBe('ok');
      expect(toolResults(api.requests[1])[0]?.content).toBe(
        `exit code 0 (ran in the local session)\nstdout:\nscrubbed|${cwd}\nstderr:\n`,
      );
    } finally {
      delete process.env['HOOKLINE_LLM_PROBE_API_KEY'];
    }
  });

  test('the deadline kills a shell command that runs too long, and the hook is timed_out', async () => {
    const cwd = await scratchDirectory('slow-shell');
    const pidFile = join(cwd, 'shell.pid');
    api.respond(
      scripted(
        message([toolUse('shell', { command: `echo $$ > ${pidFile}; exec sleep 300` })]),
        finalText('{"ok": true}'),
      ),
    );
    // The engine reports at the deadline; close() waits for the runner, whose shell is killed (TERM,
    // then KILL after 2 s at most) — and here waits longer than the test may take.
    const report = await emitHook(
      runner(),
      { type: 'agent', prompt: 'Wait.', timeout_ms: 700 },
      { context: { cwd }, closeGraceMs: OUTLASTS_THE_TEST_MS },
    );
    expect(report).toMatchObject({ status: 'timed_out', error: 'hook timed out after 700 ms' });
    expect(isRunning(Number(await readFile(pidFile, 'utf8')))).toBe(false);
    expect(api.requests).toHaveLength(1);
  });
});
