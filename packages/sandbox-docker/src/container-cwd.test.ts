import { describe, expect, test } from 'vitest';
import { containerCwd } from './container-cwd.ts';

const mounts = [
  { source: '/home/me/repo', target: '/workspace', readOnly: true },
  { source: '/home/me/repo/build', target: '/out', readOnly: false },
];

describe('containerCwd', () => {
  test('without a cwd, the workdir', () => {
    expect(containerCwd(undefined, '/workspace', mounts)).toBe('/workspace');
  });

  test('a host path inside a mount becomes the path inside the container (the deepest mount wins)', () => {
    expect(containerCwd('/home/me/repo', '/tmp', mounts)).toBe('/workspace');
    expect(containerCwd('/home/me/repo/src/', '/tmp', mounts)).toBe('/workspace/src');
    expect(containerCwd('/home/me/repo/build/x', '/tmp', mounts)).toBe('/out/x');
  });

  test('another absolute path is taken as a container path; a relative one is relative to the workdir', () => {
    expect(containerCwd('/home/me/repository', '/tmp', mounts)).toBe('/home/me/repository');
    expect(containerCwd('/etc', '/tmp', mounts)).toBe('/etc');
    expect(containerCwd('sub/dir', '/workspace', mounts)).toBe('/workspace/sub/dir');
  });
});
