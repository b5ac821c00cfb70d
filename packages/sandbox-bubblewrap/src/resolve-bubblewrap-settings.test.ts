import { describe, expect, test } from 'vitest';
import { BubblewrapSettingsError } from './bubblewrap-settings-error.ts';
import { resolveBubblewrapSettings } from './resolve-bubblewrap-settings.ts';

describe('resolveBubblewrapSettings', () => {
  test('defaults: no network, nothing extra bound, 256 pids, 512 MiB, bwrap from PATH', () => {
    expect(resolveBubblewrapSettings({})).toEqual({ network: 'none', writable: [], readable: [], pids: 256, memoryBytes: 536_870_912, bwrap: 'bwrap', killGraceMs: 2_000, maxOutputBytes: 1_048_576 });
  });

  test('relative paths are resolved against baseDir; sizes are read', () => {
    const resolved = resolveBubblewrapSettings({ baseDir: '/srv/project', writable: ['build', '/var/cache/x'], readable: ['../common'], memory: '1g', network: 'host' });
    expect(resolved).toMatchObject({ writable: ['/srv/project/build', '/var/cache/x'], readable: ['/srv/common'], memoryBytes: 1_073_741_824, network: 'host' });
  });

  test('every problem at once, with its key, and a suggestion for a misspelt one', () => {
    let thrown: unknown;
    try {
      resolveBubblewrapSettings({ network: 'bridge', writable: ['/'], pids: 2, memory: 'lots', writeable: [] } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BubblewrapSettingsError);
    const issues = (thrown as BubblewrapSettingsError).issues;
    expect(issues.map((issue) => issue.setting?.key)).toEqual(['network', 'writable[0]', 'pids', 'memory', 'writeable']);
    expect(issues.find((issue) => issue.setting?.key === 'writable[0]')?.message).toMatch(/must not be \//);
    expect(issues.find((issue) => issue.setting?.key === 'writeable')?.message).toBe('unknown setting `writeable` — did you mean `writable`?');
  });
});
