// The setup line the agent evaluates: every value arrives intact, in every shell the agent may run in.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { spawnProblem, spawnSetupLine } from './hook-spawner.ts';

const NASTY = ["it's", 'two\nlines', '$HOME `id` $(id) \\ "q" \\n', ' lead and trail ', '', '*', '-n', "'", '\n'];
const shells = ['/bin/sh', '/bin/dash', '/bin/bash', '/bin/busybox'].filter((shell) => existsSync(shell));

describe('spawnSetupLine', () => {
  test.each(shells)('%s evaluates it back to the same argv, variables and working directory', (shell) => {
    const line = spawnSetupLine({
      argv: ['sh', '-c', ...NASTY],
      env: { ODD: NASTY.join('|'), EMPTY: '' },
      marker: 'abc123',
      workingDir: "/tmp/it's here",
    });
    expect(line).not.toContain('\n');
    // As the agent does: `_nl` holds a newline, the line is eval'ed, then hookline_env exports.
    const script = `_nl='\n'; eval "$1"; hookline_env; printf '%s\\0' "$_xd" "$@" "$ODD" "$EMPTY" "$HOOKLINE_EXEC_ID"`;
    const args = shell.endsWith('busybox') ? ['sh', '-c', script, 'x', line] : ['-c', script, 'x', line];
    const output = execFileSync(shell, args, { encoding: 'utf8' });
    expect(output.split('\0').slice(0, -1)).toEqual([
      "/tmp/it's here",
      'sh',
      '-c',
      ...NASTY,
      NASTY.join('|'),
      '',
      'abc123',
    ]);
  });

  test('a variable name that a shell cannot export is named as the reason to use an exec', () => {
    expect(spawnProblem({ env: { GOOD_1: 'x' } })).toBeUndefined();
    expect(spawnProblem({ env: { 'odd.name': 'x' } })).toBe(
      'the variable name "odd.name" cannot be exported by a shell',
    );
    expect(spawnProblem({ env: { '1X': 'x' } })).toMatch(/"1X"/);
  });
});
