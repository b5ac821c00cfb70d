// What the CLI tells a sandbox to keep out of a hook's reach, besides core's protected names.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { protectedHostPaths } from './protected-host-paths.ts';

const io = { cwd: '/srv/project/sub', env: { HOME: '/home/me', XDG_CONFIG_HOME: '/home/me/.xdg' } };
const journal = { location: '/srv/project/state/journal.db', kind: 'sqlite' as const, run: 'emitter' as const };

test('the loaded files, the discovery candidates even with --config, the journal, plugin folders and home entries', () => {
  const setup = {
    files: [{ file: { path: '/etc/hookline/team.toml' } }],
    searched: [],
    folders: ['/etc/hookline', '/srv/project/sub'],
  };
  const paths = protectedHostPaths(setup, journal, io);
  expect(paths).toEqual(
    expect.arrayContaining([
      '/etc/hookline/team.toml',
      // What a later command without --config would discover.
      '/home/me/.xdg/hookline/hookline.toml',
      '/srv/project/sub/hookline.toml',
      '/srv/project/sub/.agent/settings.toml',
      '/srv/project/state/journal.db',
      '/srv/project/state/journal.db-wal',
      // Node looks for packages in every node_modules above a folder.
      '/srv/project/sub/node_modules',
      '/srv/project/node_modules',
      '/node_modules',
      '/home/me/.claude',
      '/home/me/.gitconfig',
      '/home/me/.bashrc',
    ]),
  );
  // The CLI's own installation: run from this checkout, its package folder.
  expect(paths).toContain(join(import.meta.dirname, '..', '..'));
});

test('a PostgreSQL journal adds no file', () => {
  const setup = { files: [], searched: [], folders: ['/srv/project'] };
  const paths = protectedHostPaths(setup, { location: 'postgres://db/hookline', kind: 'postgres', run: 'emitter' }, io);
  expect(paths.some((path) => path.includes('postgres'))).toBe(false);
});
