// What no hook may read — the journal key's folder, the user's secrets — stays out of sight when a
// bind holds it: a hook run from a home folder, or one listed as readable, finds each hidden path
// empty and unreadable, and the host's copy untouched. The same hooks without `hiddenPaths` read them,
// which shows each test can fail.
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
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
import { BubblewrapHiddenPathError } from './bubblewrap-hidden-path-error.ts';
import { bubblewrapSandbox, type BubblewrapSandboxSettings } from './bubblewrap-sandbox.ts';

const problem = bubblewrapProblem();
reportBubblewrapProblem(problem, 'hidden-paths.test.ts');
const root = process.getuid?.() === 0;

let scratch: string;
let home: string;
beforeEach(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-bwrap-hidden-')));
  chmodSync(scratch, 0o755);
  home = makeHome(join(scratch, 'home'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const SECRETS = { key: '.local/state/hookline/journal.key', ssh: '.ssh/id_ed25519', aws: '.aws/credentials' } as const;

// A fake home folder holding a journal key, an SSH key and AWS credentials, each with its own content.
// As root, hooks run as nobody on the host: everything is nobody's, so only the cover keeps it unread.
function makeHome(folder: string): string {
  for (const path of Object.values(SECRETS)) {
    mkdirSync(join(folder, path, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, path), `secret of ${path}\n`, { mode: 0o600 });
  }
  if (root)
    for (const path of [
      '',
      '.local',
      '.local/state',
      '.local/state/hookline',
      '.ssh',
      '.aws',
      ...Object.values(SECRETS),
    ])
      chownSync(join(folder, path), 65534, 65534);
  return folder;
}

// The paths the CLI would pass for this home.
const hiddenIn = (folder: string): string[] => [
  join(folder, '.local/state/hookline'),
  join(folder, '.ssh'),
  join(folder, '.aws'),
  join(folder, '.netrc'),
];

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function open(settings: BubblewrapSandboxSettings): Promise<SandboxSession> {
  return bubblewrapSandbox({ baseDir: scratch, ...settings }).doOpen('hidden', new AbortController().signal);
}

// Tries to read each secret (and list its folder) from inside; prints what it got.
const PEEK = Object.values(SECRETS)
  .map((path) => `cat "$H/${path}" 2>&1; echo "read ${path}: $?"; ls -A "$H/${path.split('/')[0]}" 2>&1`)
  .join('; ');

function expectUntouched(folder: string): void {
  for (const path of Object.values(SECRETS))
    expect(readFileSync(join(folder, path), 'utf8')).toBe(`secret of ${path}\n`);
}

describe.skipIf(problem !== undefined)('bubblewrap keeps hidden paths unreadable inside its binds', () => {
  test('a hook whose working directory is the home folder reads none of its secrets', async () => {
    const exposed = await open({});
    const control = await exposed.exec({ command: `H=.; ${PEEK}`, cwd: home });
    for (const path of Object.values(SECRETS)) expect(text(control.stdout)).toContain(`secret of ${path}`);
    await exposed.dispose();

    const session = await open({ hiddenPaths: hiddenIn(home) });
    const result = await session.exec({
      command: `H=.; ${PEEK}; stat -c '%a %s %n' .ssh .local/state/hookline; echo x > .ssh/planted 2>&1; chmod 700 .ssh 2>&1; echo end`,
      cwd: home,
    });
    const seen = text(result.stdout);
    expect(result.exitCode, text(result.stderr)).toBe(0);
    expect(seen).not.toContain('secret of');
    for (const path of Object.values(SECRETS)) expect(seen).toContain(`read ${path}: 1`);
    // Each folder is an empty tmpfs of mode 000, read-only, so the hook cannot open it back up.
    expect(seen).toMatch(/^0 \d+ \.ssh$/m);
    expect(seen).toMatch(/^0 \d+ \.local\/state\/hookline$/m);
    expect(seen).toMatch(/chmod: .*Read-only file system/);
    expect(seen).toContain('end');
    await session.dispose();
    expectUntouched(home);
    expect(existsSync(join(home, '.ssh', 'planted'))).toBe(false);
  });

  test('a hidden file is an empty file of mode 000 inside', async () => {
    writeFileSync(join(home, '.netrc'), 'machine example.com password hunter2\n', { mode: 0o600 });
    if (root) chownSync(join(home, '.netrc'), 65534, 65534);
    const session = await open({ hiddenPaths: hiddenIn(home) });
    const result = await session.exec({
      command: 'stat -c "%a %s" .netrc; cat .netrc 2>&1; echo "exit $?"',
      cwd: home,
    });
    expect(text(result.stdout)).toMatch(/^0 0\ncat: \.netrc: Permission denied\nexit 1\n$/);
    await session.dispose();
    expect(readFileSync(join(home, '.netrc'), 'utf8')).toContain('hunter2');
  });

  test('a home folder listed as readable is covered the same way', async () => {
    const project = join(scratch, 'project');
    mkdirSync(project);
    if (root) chownSync(project, 65534, 65534);
    const exposed = await open({ readable: [home] });
    expect(text((await exposed.exec({ command: `H='${home}'; ${PEEK}`, cwd: project })).stdout)).toContain(
      'secret of .ssh/id_ed25519',
    );
    await exposed.dispose();
    const session = await open({ readable: [home], hiddenPaths: hiddenIn(home) });
    const result = await session.exec({ command: `H='${home}'; ${PEEK}`, cwd: project });
    expect(text(result.stdout)).not.toContain('secret of');
    for (const path of Object.values(SECRETS)) expect(text(result.stdout)).toContain(`read ${path}: 1`);
    await session.dispose();
    expectUntouched(home);
  });

  test('a hidden path that is a link is covered where it leads', async () => {
    const dotfiles = join(home, 'dotfiles');
    renameSync(join(home, '.ssh'), dotfiles);
    symlinkSync('dotfiles', join(home, '.ssh'));
    const session = await open({ hiddenPaths: hiddenIn(home) });
    const result = await session.exec({
      command: 'cat .ssh/id_ed25519 dotfiles/id_ed25519 2>&1; echo "exit $?"',
      cwd: home,
    });
    expect(text(result.stdout)).not.toContain('secret of');
    expect(text(result.stdout)).toMatch(/exit 1/);
    await session.dispose();
  });

  test('hidden and protected at once, as the CLI passes them: covered where they exist, a planted one moved aside', async () => {
    const paths = [...hiddenIn(home), join(home, '.gnupg')];
    const session = await open({ hiddenPaths: paths, protectedPaths: paths });
    // The sandbox's own check of its binds runs too (a protected path under a cover is not bound).
    const result = await session.exec({ command: `H=.; ${PEEK}; true`, cwd: home });
    expect(result.exitCode, text(result.stderr)).toBe(0);
    expect(text(result.stdout)).not.toContain('secret of');
    await expect(
      session.exec({ command: 'mkdir .gnupg && echo planted > .gnupg/gpg.conf', cwd: home }),
    ).rejects.toThrow(/\.gnupg was created; it was moved aside/);
    expect(existsSync(join(home, '.gnupg'))).toBe(false);
    await session.dispose();
    expectUntouched(home);
  });

  test('a bind inside a hidden path is refused', async () => {
    const session = await open({ hiddenPaths: hiddenIn(home) });
    await expect(session.exec({ command: 'cat id_ed25519', cwd: join(home, '.ssh') })).rejects.toThrow(
      /does not bind .*\/\.ssh: it lies inside .*\/\.ssh, which hooks must not read/,
    );
    await session.dispose();
    const readable = await open({ readable: [join(home, '.aws')], hiddenPaths: hiddenIn(home) });
    await expect(readable.exec({ command: 'true', cwd: scratch })).rejects.toThrow(/it lies inside .*\/\.aws/);
    await readable.dispose();
  });

  test('a hook that moves a covered folder through the folder above it fails, naming it', async () => {
    const session = await open({ hiddenPaths: hiddenIn(home) });
    const exec = session.exec({ command: 'mv .local .moved', cwd: home });
    await expect(exec).rejects.toThrow(BubblewrapHiddenPathError);
    await expect(exec).rejects.toThrow(
      new RegExp(`${join(home, '.local/state/hookline')} is gone .*move it aside to have a new one made`),
    );
    await session.dispose();
  });

  test.skipIf(!root)('as root, a home below a folder only root may pass (staged binds) is covered too', async () => {
    const closed = join(scratch, 'closed');
    mkdirSync(closed, { mode: 0o700 });
    const staged = makeHome(join(closed, 'home'));
    const exposed = await open({});
    expect(text((await exposed.exec({ command: `H=.; ${PEEK}`, cwd: staged })).stdout)).toContain(
      'secret of .aws/credentials',
    );
    await exposed.dispose();
    const session = await open({ hiddenPaths: hiddenIn(staged) });
    const result = await session.exec({ command: `H=.; ${PEEK}; pwd`, cwd: staged });
    expect(result.exitCode, text(result.stderr)).toBe(0);
    expect(text(result.stdout)).not.toContain('secret of');
    expect(text(result.stdout)).toContain(`${staged}\n`);
    await session.dispose();
    expectUntouched(staged);
  });
});
