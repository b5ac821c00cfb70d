// The command protocol, end to end: real `sh` processes run by a real engine.
import { describe, expect, test } from 'vitest';
import { arcPreset } from '@hookline/core';
import { commandResult } from './command-result.ts';
import { emitHooks, quote, runOne } from '../test-support/hook-harness.ts';

const skipJson = JSON.stringify({ decision: 'skip', reason: 'nothing to do' });
const blockJson = JSON.stringify({ decision: 'block', reason: 'policy says no' });

describe.each(['host', 'local'] as const)('exit codes and decision JSON (%s)', (placement) => {
  test.each([
    { code: 0, decision: { decision: 'proceed' } },
    { code: 1, decision: { decision: 'block', reason: 'hook exited with code 1' } },
    { code: 2, decision: { decision: 'block', reason: 'hook exited with code 2' } },
    { code: 3, decision: { decision: 'block', reason: 'hook exited with code 3' } },
    { code: 127, decision: { decision: 'block', reason: 'hook exited with code 127' } },
    { code: 255, decision: { decision: 'block', reason: 'hook exited with code 255' } },
  ])('exit $code without JSON', async ({ code, decision }) => {
    const report = await runOne({ command: `echo not a decision; exit ${code}` }, { placement });
    expect(report.status).toBe('ok');
    expect(report.decision).toEqual(decision);
    expect(report['exit_code']).toBe(code);
    expect(report['signal']).toBeUndefined();
    expect(report['sandbox']).toBe(placement);
  });

  test.each([
    { code: 0, decision: { decision: 'skip', reason: 'nothing to do' } },
    { code: 2, decision: { decision: 'skip', reason: 'nothing to do' } },
    { code: 1, decision: { decision: 'block', reason: 'hook exited with code 1' } },
    { code: 3, decision: { decision: 'block', reason: 'hook exited with code 3' } },
    { code: 127, decision: { decision: 'block', reason: 'hook exited with code 127' } },
    { code: 255, decision: { decision: 'block', reason: 'hook exited with code 255' } },
  ])('exit $code with a decision JSON', async ({ code, decision }) => {
    const report = await runOne({ command: `printf '%s\\n' ${quote(skipJson)}; exit ${code}` }, { placement });
    expect(report.status).toBe('ok');
    expect(report.decision).toEqual(decision);
    expect(report['exit_code']).toBe(code);
    // Codes other than 0 and 2 ignore the JSON, and the report says so.
    if (code !== 0 && code !== 2) expect(report.warnings?.join('\n')).toContain('only exit codes 0 and 2');
  });
});

describe('stdout is read as a whole', () => {
  test('surrounding whitespace is trimmed', async () => {
    const report = await runOne({ command: `printf '\\n\\n  %s  \\n\\n' ${quote(blockJson)}` });
    expect(report.decision).toEqual({ decision: 'block', reason: 'policy says no' });
  });

  test('JSON preceded by log lines is not a decision: exit 0 proceeds, with a warning', async () => {
    const report = await runOne({ command: `echo 'checking the plan…'; echo ${quote(blockJson)}` });
    expect(report.status).toBe('ok');
    expect(report.decision).toEqual({ decision: 'proceed' });
    expect(report.warnings?.join('\n')).toContain('not exactly one valid decision JSON');
  });

  test('JSON preceded by log lines with exit 2 blocks by the code rule', async () => {
    const report = await runOne({ command: `echo 'checking'; echo ${quote(skipJson)}; exit 2` });
    expect(report.decision).toEqual({ decision: 'block', reason: 'hook exited with code 2' });
  });

  test('override without edge_to cannot be honoured: failed on exit 0 (on_error decides), block on exit 2', async () => {
    const override = quote(JSON.stringify({ decision: 'override', reason: 'go elsewhere' }));
    const zero = await runOne({ command: `echo ${override}`, on_error: 'proceed' }, { event: 'edge_selected' });
    expect(zero.status).toBe('failed');
    expect(zero.decision?.decision).toBe('proceed');
    expect(zero.error).toContain('"override" needs a non-empty "edge_to"');
    const two = await runOne({ command: `echo ${override}; exit 2` }, { event: 'edge_selected' });
    expect(two.decision).toEqual({ decision: 'block', reason: 'hook exited with code 2' });
  });

  test('override with edge_to redirects the edge; unknown fields are ignored', async () => {
    const override = quote(
      JSON.stringify({ decision: 'override', edge_to: 'review', reason: 'needs eyes', extra: [1, 2] }),
    );
    const outcome = await emitHooks([{ command: `echo ${override}` }], { event: 'edge_selected' });
    expect(outcome.decision).toBe('override');
    expect(outcome.edge_to).toBe('review');
    expect(outcome.hooks[0]?.decision).toEqual({ decision: 'override', edge_to: 'review', reason: 'needs eyes' });
  });

  test('a decision with a reason that is not a string cannot be honoured: the hook failed', async () => {
    const report = await runOne({ command: `echo '{"decision":"block","reason":42}'` });
    expect(report.status).toBe('failed');
    expect(report.decision?.decision).toBe('block');
    expect(report.error).toContain('"reason" must be a string, got 42');
  });
});

describe('signals', () => {
  test('a hook killed by a signal blocks, naming the signal', async () => {
    const report = await runOne({ command: 'kill -KILL $$' });
    expect(report.status).toBe('ok');
    expect(report.decision).toEqual({ decision: 'block', reason: 'hook killed by SIGKILL' });
    expect(report['exit_code']).toBeNull();
    expect(report['signal']).toBe('SIGKILL');
  });

  test('SIGTERM from inside is reported the same way', async () => {
    const report = await runOne({ command: 'kill -TERM $$; sleep 5' }, { placement: 'local' });
    expect(report.decision).toEqual({ decision: 'block', reason: 'hook killed by SIGTERM' });
  });
});

describe('stderr in the report', () => {
  test('the end of stderr is reported when the hook does not exit 0', async () => {
    const report = await runOne({ command: 'echo "first line" >&2; echo "database unreachable" >&2; exit 1' });
    expect(report['stderr']).toBe('first line\ndatabase unreachable');
  });

  test('only the last 4 KiB of a long stderr are kept in the report', async () => {
    const report = await runOne({ command: "head -c 20000 /dev/zero | tr '\\0' a >&2; echo END >&2; exit 1" });
    const stderr = report['stderr'] as string;
    expect(stderr.length).toBeLessThanOrEqual(4096);
    expect(stderr.endsWith('aaaEND')).toBe(true);
  });

  test('stderr of a hook that exits 0 stays out of the report', async () => {
    const report = await runOne({ command: 'echo "just logging" >&2' });
    expect(report['stderr']).toBeUndefined();
  });
});

describe('output that is not UTF-8', () => {
  test('invalid bytes on stdout and stderr are replaced, not fatal', async () => {
    const report = await runOne({
      command: "printf '\\377\\376 caf\\303 \\200' ; printf 'bad \\377\\300 bytes' >&2; exit 2",
    });
    expect(report.status).toBe('ok');
    expect(report.decision).toEqual({ decision: 'block', reason: 'hook exited with code 2' });
    expect(report['stderr']).toBe('bad \uFFFD\uFFFD bytes');
  });

  test('a decision whose reason holds invalid bytes still parses', async () => {
    const report = await runOne({ command: `printf '{"decision":"block","reason":"bad \\377 byte"}'` });
    expect(report.decision).toEqual({ decision: 'block', reason: 'bad \uFFFD byte' });
  });

  test('binary noise with exit 0 proceeds', async () => {
    const report = await runOne({ command: 'head -c 65536 /dev/urandom' });
    expect(report.status).toBe('ok');
    expect(report.decision).toEqual({ decision: 'proceed' });
  });
});

test("a sandbox's exec warnings reach the hook's report", () => {
  const result = commandResult(
    {
      exitCode: 0,
      signal: null,
      stdout: new Uint8Array(),
      stderr: new Uint8Array(),
      stdoutTruncated: false,
      stderrTruncated: false,
      aborted: false,
      warnings: ['the container had stopped; this hook ran in a replacement'],
    },
    {
      provider: 'docker',
      maxOutputBytes: 1024,
      stderrTailBytes: 0,
      abortReason: () => '',
      event: 'run_start',
      preset: arcPreset,
    },
  );
  expect(result).toMatchObject({
    status: 'ok',
    decision: { decision: 'proceed' },
    warnings: ['the container had stopped; this hook ran in a replacement'],
  });
});
