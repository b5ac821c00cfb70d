// What the CLI tells a sandbox no hook may read.
import { expect, test } from 'vitest';
import { hiddenHostPaths } from './hidden-host-paths.ts';
import { protectedHostPaths } from './protected-host-paths.ts';

test("the journal key's folder as the key file is found, and the home folder's secrets", () => {
  const paths = hiddenHostPaths({ env: { HOME: '/home/me' } });
  expect(paths).toEqual(
    expect.arrayContaining([
      '/home/me/.local/state/hookline',
      '/home/me/.ssh',
      '/home/me/.gnupg',
      '/home/me/.aws',
      '/home/me/.config/gcloud',
      '/home/me/.kube',
      '/home/me/.docker/config.json',
      '/home/me/.netrc',
      '/home/me/.pgpass',
      '/home/me/.npmrc',
      '/home/me/.git-credentials',
      '/home/me/.config/gh',
    ]),
  );
});

test('XDG_STATE_HOME moves the key folder; XDG_CONFIG_HOME adds its gcloud and gh folders', () => {
  const paths = hiddenHostPaths({ env: { HOME: '/home/me', XDG_STATE_HOME: '/state', XDG_CONFIG_HOME: '/conf' } });
  expect(paths).toContain('/state/hookline');
  expect(paths).not.toContain('/home/me/.local/state/hookline');
  expect(paths).toEqual(expect.arrayContaining(['/conf/gcloud', '/conf/gh', '/home/me/.config/gh']));
});

test('each is protected too: a hook must not plant a journal key or an authorized_keys where none is', () => {
  const io = { cwd: '/srv/project', env: { HOME: '/home/me' } };
  const paths = protectedHostPaths(
    { files: [], searched: [], folders: [] },
    { location: 'postgres://db/hookline', kind: 'postgres', run: 'emitter' },
    io,
  );
  expect(paths).toEqual(expect.arrayContaining(hiddenHostPaths(io)));
});
