// `hookline run` answers every line, whatever a runner put into its report: core cuts reasons and
// errors, and each output line is bounded, still valid JSON.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

// A third-party runner (a plain object, no @hookline/core) whose answers are as large as its hook says:
// a 300-million-character reason (what once killed `run` with "Invalid string length"), and report
// details and warnings that core does not cut.
const LOUD_RUNNER = `async function doRun(hook) {
  if (hook.name === 'huge-reason') return { status: 'ok', decision: { decision: 'block', reason: 'x'.repeat(300_000_000) } };
  if (hook.name === 'huge-error') return { status: 'failed', error: 'e'.repeat(300_000_000) };
  return {
    status: 'ok',
    decision: { decision: 'proceed' },
    warnings: Array.from({ length: 100 }, (_, index) => index + ': ' + 'w'.repeat(3000)),
    details: { dump: 'é'.repeat(200_000), rows: Array.from({ length: 50_000 }, (_, index) => index) },
  };
}
export default {
  runnerInterfaceVersion: 'v2',
  name: 'hookline-runner-loud',
  // A keyless object schema as valibot's v.object({}) describes it (core reads its entries).
  types: { loud: { options: { kind: 'schema', type: 'object', entries: {} }, defaultTimeoutMs: 30000, defaultOnError: 'block', usesSandbox: false, doRun } },
};
`;

function writeLoudConfig(): void {
  scratch.write(
    'node_modules/hookline-runner-loud/package.json',
    JSON.stringify({ name: 'hookline-runner-loud', version: '1.0.0', type: 'module', exports: './index.js' }),
  );
  scratch.write('node_modules/hookline-runner-loud/index.js', LOUD_RUNNER);
  scratch.write(
    'hookline.toml',
    ['huge-reason:run_start', 'huge-error:stage_start', 'chatty:stage_complete']
      .map((entry) => entry.split(':'))
      .map(([name, event]) => `[[hooks]]\nname = "${name}"\nevent = "${event}"\ntype = "loud"\nblocking = true\n`)
      .join('\n')
      .replace(/^/, 'plugins = ["hookline-runner-loud"]\n\n'),
  );
}

const events = ['run_start', 'stage_start', 'stage_complete', 'run_complete'].map((event) =>
  JSON.stringify({ event, run_id: 'r1', workflow_name: 'w', node_id: 'n' }),
);

test('huge answers from a runner: every line is answered, at most 64 KiB, valid JSON, cuts marked', async () => {
  writeLoudConfig();
  const result = await runCli(['run'], { cwd: scratch.path, input: `${events.join('\n')}\n` });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(4);
  for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(65_536);
  const [reason, error, chatty, quiet] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  // Core's cut: 4 096 characters and a marker; the line then fits whole.
  expect(reason).toMatchObject({
    event: 'run_start',
    decision: 'block',
    decided_by: 'huge-reason',
    reason: `${'x'.repeat(4096)}… (cut at 4096 characters)`,
  });
  expect(reason).not.toHaveProperty('truncated');
  expect(error).toMatchObject({
    decision: 'block',
    hooks: [{ status: 'failed', error: `${'e'.repeat(4096)}… (cut at 4096 characters)` }],
  });
  // The line's cut: long strings shortened and marked, arrays kept as long as they can fit, and the line flagged.
  expect(chatty).toMatchObject({
    event: 'stage_complete',
    decision: 'proceed',
    truncated: true,
    hooks: [{ name: 'chatty', status: 'ok' }],
  });
  const report = (chatty!['hooks'] as Array<Record<string, unknown>>)[0]!;
  expect(report['dump']).toMatch(/^é+… \(cut at \d+ characters\)$/);
  expect(quiet).toEqual({ event: 'run_complete', decision: 'proceed', hooks: [], warnings: [] });
}, 120_000);

test('--max-line-bytes sets the bound; nonsense is a usage error', async () => {
  writeLoudConfig();
  const result = await runCli(['run', '--max-line-bytes', '2048'], {
    cwd: scratch.path,
    input: `${events.join('\n')}\n`,
  });
  expect(result.code).toBe(0);
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(4);
  for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(2048);
  expect(JSON.parse(lines[0]!)).toMatchObject({
    event: 'run_start',
    decision: 'block',
    decided_by: 'huge-reason',
    truncated: true,
  });
  const refused = await runCli(['run', '--max-line-bytes', '12'], { cwd: scratch.path, input: '' });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('--max-line-bytes must be a whole number of bytes, at least 1024; got "12"');
}, 120_000);
