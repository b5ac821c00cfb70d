// The bookkeeping behind the sandboxes' hidden paths, on real folders: what a bind exposes, which
// bind lies inside a hidden path, and what a move after the exec leads to.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { describeHiddenPathChanges, guardHiddenPaths } from './hidden-paths.ts';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-hidden-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('existing hidden paths inside a bind are covered, outermost only; absent ones and those elsewhere are not', () => {
  mkdirSync(join(root, 'home', '.ssh'), { recursive: true });
  mkdirSync(join(root, 'home', '.aws'));
  writeFileSync(join(root, 'home', '.netrc'), '');
  mkdirSync(join(root, 'elsewhere', '.ssh'), { recursive: true });
  const home = join(root, 'home');
  const guard = guardHiddenPaths(
    [home],
    [
      join(home, '.ssh'),
      join(home, '.ssh', 'id_ed25519'),
      join(home, '.netrc'),
      join(home, '.gnupg'),
      join(root, 'elsewhere', '.ssh'),
      'relative/.ssh',
    ],
  );
  expect(guard.covered).toEqual([
    { path: join(home, '.ssh'), directory: true },
    { path: join(home, '.netrc'), directory: false },
  ]);
  expect(guard.insideHidden).toEqual([]);
  expect(guard.settle()).toEqual([]);
});

test('a link is followed to where it leads; a bind inside a hidden path is reported', () => {
  mkdirSync(join(root, 'dotfiles', 'ssh'), { recursive: true });
  symlinkSync(join(root, 'dotfiles', 'ssh'), join(root, '.ssh'));
  const guard = guardHiddenPaths([root, join(root, 'dotfiles', 'ssh', 'keys')], [join(root, '.ssh')]);
  expect(guard.covered).toEqual([{ path: join(root, 'dotfiles', 'ssh'), directory: true }]);
  expect(guard.insideHidden).toEqual([
    { root: join(root, 'dotfiles', 'ssh', 'keys'), hiddenPath: join(root, 'dotfiles', 'ssh') },
  ]);
});

test('a covered path moved through a folder above it, or swapped, is reported with what to do', () => {
  mkdirSync(join(root, '.local', 'state', 'hookline'), { recursive: true });
  mkdirSync(join(root, '.aws'));
  const guard = guardHiddenPaths([root], [join(root, '.local', 'state', 'hookline'), join(root, '.aws')]);
  renameSync(join(root, '.local'), join(root, '.moved'));
  renameSync(join(root, '.aws'), join(root, '.aws-real'));
  mkdirSync(join(root, '.aws'));
  const changes = guard.settle();
  expect(changes).toEqual([
    { path: join(root, '.local', 'state', 'hookline'), change: 'removed' },
    { path: join(root, '.aws'), change: 'replaced' },
  ]);
  expect(describeHiddenPathChanges('test', changes)).toMatch(
    /hookline is gone \(a folder above it was renamed or removed\).*\.aws is another file now.*move it aside to have a new one made/,
  );
});
