import { describe, expect, test } from 'vitest';
import { loadConfig } from '@hookline/core';
import { commandRunner } from '@hookline/runner-command';
import { bubblewrapSandbox } from './bubblewrap-sandbox.ts';
import { BubblewrapSettingsError } from './bubblewrap-settings-error.ts';
import { resolveBubblewrapSettings } from './resolve-bubblewrap-settings.ts';

describe('resolveBubblewrapSettings', () => {
  test('defaults: no network, nothing extra bound, 256 pids, 512 MiB, bwrap from PATH', () => {
    expect(resolveBubblewrapSettings({})).toEqual({
      network: 'none',
      writable: [],
      readable: [],
      pids: 256,
      memoryBytes: 536_870_912,
      bwrap: 'bwrap',
      killGraceMs: 2_000,
      maxOutputBytes: 1_048_576,
    });
  });

  test('relative paths are resolved against baseDir; sizes are read', () => {
    const resolved = resolveBubblewrapSettings({
      baseDir: '/srv/project',
      writable: ['build', '/var/cache/x'],
      readable: ['../common'],
      memory: '1g',
      network: 'host',
    });
    expect(resolved).toMatchObject({
      writable: ['/srv/project/build', '/var/cache/x'],
      readable: ['/srv/common'],
      memoryBytes: 1_073_741_824,
      network: 'host',
    });
  });

  test('every problem at once, with its key, and a suggestion for a misspelt one', () => {
    let thrown: unknown;
    try {
      resolveBubblewrapSettings({
        network: 'bridge',
        writable: ['/'],
        pids: 2,
        memory: 'lots',
        writeable: [],
      } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BubblewrapSettingsError);
    const issues = (thrown as BubblewrapSettingsError).issues;
    expect(issues.map((issue) => issue.setting?.key)).toEqual([
      'network',
      'writable[0]',
      'pids',
      'memory',
      'writeable',
    ]);
    expect(issues.find((issue) => issue.setting?.key === 'writable[0]')?.message).toMatch(/must not be \//);
    expect(issues.find((issue) => issue.setting?.key === 'writeable')?.message).toBe(
      'unknown setting `writeable` — did you mean `writable`?',
    );
  });
});

describe('[sandbox.bubblewrap]', () => {
  const load = (text: string) =>
    loadConfig([{ text, source: 'hookline.toml' }], {
      runners: [commandRunner()],
      settingsTables: [bubblewrapSandbox.settingsTable],
    });

  test('the table is snake_case; the factory receives it validated, in its own camelCase', () => {
    const config = load(
      '[sandbox.bubblewrap]\nbase_dir = "/srv/project"\nwritable = ["build"]\nkill_grace_ms = 100\nmax_output_bytes = 4096\n',
    );
    const settings = config.settings['sandbox.bubblewrap'] as NonNullable<Parameters<typeof bubblewrapSandbox>[0]>;
    expect(settings).toEqual({ baseDir: '/srv/project', writable: ['build'], killGraceMs: 100, maxOutputBytes: 4096 });
    expect(resolveBubblewrapSettings(settings)).toMatchObject({
      writable: ['/srv/project/build'],
      killGraceMs: 100,
      maxOutputBytes: 4096,
    });
  });

  test('the camelCase names keep working with a deprecation warning; mistakes are issues at their lines', () => {
    expect(load('[sandbox.bubblewrap]\nkillGraceMs = 100\n').warnings).toEqual([
      'hookline.toml:2: [sandbox.bubblewrap] `killGraceMs` is deprecated; write `kill_grace_ms` (snake_case, as hook keys are)',
    ]);
    expect(() => load('[sandbox.bubblewrap]\nnetwork = "bridge"\nkill_grace_m = 5\n')).toThrow(
      expect.objectContaining({
        issues: [
          expect.objectContaining({
            line: 2,
            message: expect.stringContaining('[sandbox.bubblewrap] `network` must be "none"'),
          }),
          expect.objectContaining({ line: 3, fix: 'did you mean `kill_grace_ms`?' }),
        ],
      }),
    );
  });
});
