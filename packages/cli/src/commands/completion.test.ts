import { execFileSync, spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

async function script(shell: string): Promise<string> {
  const result = await runCli(['completion', shell], { cwd: scratch.path });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return result.stdout;
}

function hasShell(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
}

describe('hookline completion', () => {
  test('bash: a real bash completes commands, options, events, presets and files', async () => {
    const code = await script('bash');
    // Asks the completion function what it offers for a command line, as bash would on <Tab>.
    const complete = (...words: string[]): string[] =>
      execFileSync(
        'bash',
        [
          '-c',
          `${code}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _hookline; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { cwd: scratch.path, encoding: 'utf8' },
      )
        .split('\n')
        .filter((line) => line !== '')
        .sort();
    expect(complete('hookline', 'em')).toEqual(['emit']);
    expect(complete('hookline', 'co')).toEqual(['completion']);
    expect(complete('hookline', 'emit', '--con')).toEqual(['--config', '--context']);
    expect(complete('hookline', 'emit', 'pre_')).toEqual([
      'pre_compact',
      'pre_mcp_tool_use',
      'pre_read_code',
      'pre_run_command',
      'pre_tool_use',
      'pre_turn',
      'pre_write_code',
    ]);
    expect(complete('hookline', 'explain', 'after_m')).toEqual(['after_merge']);
    expect(complete('hookline', 'init', '--preset', 'ta')).toEqual(['task']);
    expect(complete('hookline', 'init', '--re')).toEqual(['--remote']);
    scratch.write('team.toml', '');
    expect(complete('hookline', 'validate', '--config', 'te')).toEqual(['team.toml']);
    expect(complete('hookline', 'completion', 'f')).toEqual(['fish']);
  });

  test('zsh and fish scripts carry the same commands, options and events', async () => {
    const zsh = await script('zsh');
    expect(zsh).toContain('bashcompinit');
    expect(zsh).toContain('complete -o default -F _hookline hookline');
    const fish = await script('fish');
    expect(fish).toContain(
      'complete -c hookline -n "not __fish_seen_subcommand_from emit run explain validate list schema init completion worker journal sandbox webhook serve trust bridge install uninstall doctor" -a emit -d \'run an event\\\'s hooks',
    );
    expect(fish).toContain('complete -c hookline -n "__fish_seen_subcommand_from emit" -l context -r -F');
    expect(fish).toContain(
      'complete -c hookline -n "__fish_seen_subcommand_from init" -l preset -x -a \'arc task agent gemini codex cursor copilot windsurf claude\'',
    );
    expect(fish).toMatch(/__fish_seen_subcommand_from explain" -a '[^']*pre_tool_use/);
    for (const [shell, text] of [
      ['zsh', zsh],
      ['fish', fish],
    ] as const) {
      if (!hasShell(shell)) {
        console.warn(`${shell} is not installed, so its completion script is not syntax-checked by ${shell} itself`);
        continue;
      }
      expect(spawnSync(shell, ['-n'], { input: text }).status, `${shell} -n`).toBe(0);
    }
  });

  test('without a shell, or with an unknown one, it says which shells it knows', async () => {
    for (const args of [['completion'], ['completion', 'tcsh']]) {
      const result = await runCli(args, { cwd: scratch.path });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('name one shell: `hookline completion bash`, `zsh` or `fish`');
    }
  });
});

describe('--quiet', () => {
  test('emit prints no summary and no warnings, keeps the exit code; errors still show', async () => {
    scratch.write(
      'hookline.toml',
      'model = "x"\n[[hooks]]\nname = "gate"\nevent = "stage_start"\ncommand = "exit 2"\n',
    );
    const loud = await runCli(['emit', 'stage_start'], { cwd: scratch.path });
    expect(loud.code).toBe(2);
    expect(loud.stdout).toContain('stage_start: block');
    expect(loud.stderr).toContain('hookline: warning: hookline.toml:1: ignoring unknown top-level key `model`');
    const quiet = await runCli(['emit', 'stage_start', '--quiet'], { cwd: scratch.path });
    expect(quiet).toMatchObject({ code: 2, stdout: '', stderr: '' });
    const json = await runCli(['-q', 'emit', 'stage_start', '--json'], { cwd: scratch.path });
    expect(json).toMatchObject({ code: 2, stderr: '' });
    expect(JSON.parse(json.stdout)).toMatchObject({ decision: 'block', decided_by: 'gate' });
    const failing = await runCli(['emit', 'stage_strat', '-q'], { cwd: scratch.path });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('Unknown event "stage_strat"');
  });

  test('validate and init say nothing when all is well', async () => {
    expect(await runCli(['init', '--quiet'], { cwd: scratch.path })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await runCli(['validate', '--quiet'], { cwd: scratch.path })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });
});

describe('colors', () => {
  test('FORCE_COLOR paints output that is not a terminal; NO_COLOR wins over it', async () => {
    scratch.write('hookline.toml', '[[hooks]]\nname = "gate"\nevent = "stage_start"\ncommand = "exit 2"\n');
    const forced = await runCli(['emit', 'stage_start'], {
      cwd: scratch.path,
      env: { NO_COLOR: '', FORCE_COLOR: '1' },
    });
    expect(forced.stdout).toMatch(/\u001b\[\d+m/);
    const both = await runCli(['emit', 'stage_start'], { cwd: scratch.path, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(both.stdout).not.toMatch(/\u001b\[/);
    const off = await runCli(['emit', 'stage_start'], { cwd: scratch.path, env: { NO_COLOR: '', FORCE_COLOR: '0' } });
    expect(off.stdout).not.toMatch(/\u001b\[/);
    expect(off.stdout).toContain('stage_start: block');
  });
});
