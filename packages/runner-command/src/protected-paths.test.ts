// The bookkeeping behind the sandboxes' protected paths, on real folders: what a root exposes, what
// lies inside a protected path, and what a change after the exec leads to.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { describeProtectedPathChanges, guardProtectedPaths } from './protected-paths.ts';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-protected-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('existing names and host paths inside a root are to be bound; absent ones are watched', () => {
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(root, 'hookline.toml'), '');
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'journal.db'), '');
  const guard = guardProtectedPaths([root], [join(root, 'data', 'journal.db'), '/elsewhere/hookline.toml']);
  expect([...guard.existing].sort()).toEqual([
    join(root, '.git'),
    join(root, 'data', 'journal.db'),
    join(root, 'hookline.toml'),
  ]);
  expect(guard.absent).toContain(join(root, '.claude'));
  expect(guard.absent).not.toContain('/elsewhere/hookline.toml');
  expect(guard.insideProtected).toEqual([]);
  expect(guard.settle()).toEqual([]);
});

test('what appeared or was replaced is moved aside, never deleted; the account says what to do', () => {
  writeFileSync(join(root, 'hookline.toml'), 'old');
  const guard = guardProtectedPaths([root], []);
  // Another file put in its place (a hook's `mv new.toml hookline.toml` where nothing is bound).
  writeFileSync(join(root, 'new.toml'), 'new');
  renameSync(join(root, 'new.toml'), join(root, 'hookline.toml'));
  mkdirSync(join(root, '.husky'));
  const changes = guard.settle();
  expect(changes.map((change) => [change.path, change.change])).toEqual(
    expect.arrayContaining([
      [join(root, 'hookline.toml'), 'replaced'],
      [join(root, '.husky'), 'created'],
    ]),
  );
  const aside = readdirSync(root).find((name) => name.startsWith('hookline.toml.hookline-quarantine-'));
  expect(readFileSync(join(root, aside!), 'utf8')).toBe('new');
  expect(describeProtectedPathChanges('test', changes)).toMatch(
    /hookline\.toml was replaced; it was moved aside to .*inspect it, then delete it, or move it back if you trust it/,
  );
});

test('a root inside a protected folder, by name or by a host path, is reported', () => {
  mkdirSync(join(root, 'project', '.git', 'objects'), { recursive: true });
  mkdirSync(join(root, 'plugins', 'x'), { recursive: true });
  expect(guardProtectedPaths([join(root, 'project', '.git', 'objects')], []).insideProtected).toEqual([
    { root: join(root, 'project', '.git', 'objects'), protectedPath: join(root, 'project', '.git') },
  ]);
  expect(guardProtectedPaths([join(root, 'plugins', 'x')], [join(root, 'plugins')]).insideProtected).toEqual([
    { root: join(root, 'plugins', 'x'), protectedPath: join(root, 'plugins') },
  ]);
  // An agent's folder holds more than settings (Codex keeps worktrees in ~/.codex/worktrees).
  mkdirSync(join(root, '.codex', 'worktrees', 'w'), { recursive: true });
  expect(guardProtectedPaths([join(root, '.codex', 'worktrees', 'w')], []).insideProtected).toEqual([]);
  expect(guardProtectedPaths([join(root, '.codex')], []).insideProtected).toHaveLength(1);
});

test("a protected link's target is protected, and core.hooksPath adds the repository's hooks folder", () => {
  mkdirSync(join(root, 'conf'));
  writeFileSync(join(root, 'conf', 'real.toml'), '');
  symlinkSync('conf/real.toml', join(root, 'hookline.toml'));
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '[core]\n\thooksPath = "tools/hooks" ; set by the team\n');
  mkdirSync(join(root, 'tools', 'hooks'), { recursive: true });
  const guard = guardProtectedPaths([root], []);
  expect(guard.existing).toEqual(
    expect.arrayContaining([join(root, 'conf', 'real.toml'), join(root, 'tools', 'hooks')]),
  );
  expect(guard.existing).not.toContain(join(root, 'hookline.toml'));
});
