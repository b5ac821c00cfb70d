// Matchers have RE2 semantics: linear-time matching, so no pattern can stall the CLI, and what RE2
// cannot express is a config error at load.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { finished, makeScratch, runCli, startCli, type CliResult, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

/** `hookline …args` fed `input`; a CLI still running after `boundMs` is killed and the test fails. */
async function runBounded(args: readonly string[], input: string, boundMs: number): Promise<CliResult> {
  const child = startCli(args, { cwd: scratch.path });
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(input);
  const result = finished(child);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'stalled'>((resolve) => {
    timer = setTimeout(() => resolve('stalled'), boundMs);
  });
  const first = await Promise.race([result, bound]);
  clearTimeout(timer);
  if (first === 'stalled') {
    child.kill('SIGKILL');
    const { stdout } = await result;
    throw new Error(
      `hookline ${args.join(' ')} still ran after ${boundMs} ms (a stalled matcher?); it had answered:\n${stdout}`,
    );
  }
  return first;
}

test('a catastrophic-backtracking matcher against a 40-character node_id: hookline run answers every line and exits', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "redos"\nevent = "stage_start"\nmatcher = "(a+)+$"\ncommand = "exit 2"\n',
  );
  const lines = [
    { event: 'stage_start', run_id: 'r1', workflow_name: 'w', node_id: `${'a'.repeat(39)}!` },
    { event: 'stage_start', run_id: 'r1', workflow_name: 'w', node_id: 'aaaa' },
    { event: 'stage_complete', run_id: 'r1', workflow_name: 'w', node_id: 'later' },
  ];
  // A backtracking engine needs about 2^40 steps for the first line; RE2 needs about 40.
  const result = await runBounded(['run'], `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`, 60_000);
  expect(result.stderr).toBe('');
  const answers = result.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { event: string; decision: string; hooks: unknown[] });
  expect(answers.map((answer) => [answer.event, answer.decision, answer.hooks.length])).toEqual([
    ['stage_start', 'proceed', 0],
    ['stage_start', 'block', 1],
    ['stage_complete', 'proceed', 0],
  ]);
  expect(result.code).toBe(0);
}, 90_000);

test('explain tries the same matcher and says why it did not match', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "redos"\nevent = "stage_start"\nmatcher = "(a+)+$"\ncommand = "exit 2"\n',
  );
  const result = await runBounded(
    ['explain', 'stage_start', '--set', 'run_id=r1', '--set', 'workflow_name=w', '--set', `node_id=${'a'.repeat(39)}!`],
    '',
    60_000,
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(`matcher /(a+)+$/ matched none of node_id="${'a'.repeat(39)}!"`);
}, 90_000);

test('backreferences and lookaround are load errors with file, line and why; nothing runs', async () => {
  scratch.write(
    'hookline.toml',
    `[[hooks]]
name = "twice"
event = "stage_start"
matcher = "(a)\\\\1"
command = "touch ran"

[[hooks]]
name = "ahead"
event = "stage_start"
matcher = "(?=x)"
command = "touch ran"
`,
  );
  const validate = await runCli(['validate'], { cwd: scratch.path });
  expect(validate.code).toBe(1);
  expect(validate.stderr.trimEnd().split('\n')).toEqual([
    expect.stringMatching(
      /^hookline\.toml:4: hooks\[0\] "twice": invalid regular expression in `matcher`: backreference `\\1` is not supported: RE2 matches in linear time, which rules out backreferences — fix the pattern: matchers use RE2 syntax/,
    ),
    expect.stringMatching(
      /^hookline\.toml:10: hooks\[1\] "ahead": invalid regular expression in `matcher`: lookahead `\(\?=…\)` is not supported/,
    ),
  ]);
  const emit = await runCli(
    ['emit', 'stage_start', '--set', 'run_id=r1', '--set', 'workflow_name=w', '--set', 'node_id=aa'],
    { cwd: scratch.path },
  );
  expect(emit.code).toBe(1);
  expect(emit.stderr).toContain('hookline.toml:4:');
});

test('RE2 syntax that JavaScript lacks works: inline flags and Python-style named groups', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "deploys"\nevent = "stage_start"\nmatcher = "(?i)^(?P<env>deploy)-"\ncommand = "exit 2"\n',
  );
  const result = await runCli(
    ['emit', 'stage_start', '--set', 'run_id=r1', '--set', 'workflow_name=w', '--set', 'node_id=DEPLOY-prod', '--json'],
    { cwd: scratch.path },
  );
  expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'block', decided_by: 'deploys' });
  expect(result.code).toBe(2);
});
