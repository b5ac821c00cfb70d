import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { DockerSettingsError } from './docker-settings-error.ts';
import { dockerSettingsSchema } from './docker-settings.ts';
import { loadConfig } from '@hookline/core';
import { parseByteSize } from '@hookline/core/plugin';
import { commandRunner } from '@hookline/runner-command';
import { dockerSandbox } from './docker-sandbox.ts';
import { resolveDockerSettings } from './resolve-docker-settings.ts';

function problems(settings: unknown): string[] {
  try {
    resolveDockerSettings(settings as never);
  } catch (error) {
    if (DockerSettingsError.isInstance(error))
      return error.issues.map((issue) => `${issue.setting?.key}: ${issue.message}`);
    throw error;
  }
  return [];
}

describe('resolveDockerSettings', () => {
  test('the defaults are the documented hardening', () => {
    const settings = resolveDockerSettings({ baseDir: '/srv/repo' });
    expect(settings).toMatchObject({
      image: 'busybox:stable',
      network: 'none',
      memoryBytes: 512 * 1024 * 1024,
      pids: 256,
      nanoCpus: 1_000_000_000,
      user: '65534:65534',
      readOnly: true,
      noNewPrivileges: true,
      init: true,
      capAdd: [],
      tmpfs: { '/tmp': 'rw,nosuid,nodev,noexec,size=64m,mode=1777' },
      workdir: '/tmp',
      killGraceMs: 2_000,
      maxOutputBytes: 1_048_576,
      pruneOrphans: true,
    });
  });

  test('every default can be overridden, and units are converted', () => {
    const settings = resolveDockerSettings({
      image: 'alpine:3',
      mounts: ['./:/workspace', '/data:/data:rw'],
      baseDir: '/srv/repo',
      network: 'bridge',
      memory: '1.5g',
      pids: 64,
      cpus: 0.5,
      user: '1000:1000',
      readOnly: false,
      tmpfs: { '/tmp': 'rw,size=16m', '/run': 'rw,size=1m' },
      capAdd: ['CAP_NET_BIND_SERVICE'],
      noNewPrivileges: false,
      init: false,
      env: { LANG: 'C.UTF-8' },
    });
    expect(settings.mounts).toEqual([
      { source: '/srv/repo', target: '/workspace', readOnly: true },
      { source: '/data', target: '/data', readOnly: false },
    ]);
    expect(settings.workdir).toBe('/workspace');
    expect(settings.memoryBytes).toBe(1.5 * 1024 ** 3);
    expect(settings.nanoCpus).toBe(500_000_000);
    expect(settings.tmpfs).toEqual({ '/tmp': 'rw,size=16m', '/run': 'rw,size=1m' });
    expect(settings.capAdd).toEqual(['NET_BIND_SERVICE']);
    expect(settings).toMatchObject({
      network: 'bridge',
      pids: 64,
      user: '1000:1000',
      readOnly: false,
      noNewPrivileges: false,
      init: false,
      env: { LANG: 'C.UTF-8' },
    });
  });

  test('every problem is reported at once, naming its key', () => {
    const found = problems({
      imag: 'x',
      memory: '2m',
      pids: 0,
      cpus: -1,
      mounts: ['relative', '/a:b', '/x:/y:rx'],
      workdir: 'work',
      user: 'a b',
      env: { 'BAD-NAME': 'x' },
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'imag: unknown setting `imag` — did you mean `image`?',
        expect.stringMatching(/^memory: must be at least 6 MiB/),
        expect.stringMatching(/^pids: must be an integer from 8/),
        expect.stringMatching(/^cpus: must be at least 0.01/),
        expect.stringMatching(/^mounts\[0\]: "relative" is not "host:container\[:ro\|rw\]"/),
        expect.stringMatching(/^mounts\[1\]: .*the container path must be absolute/),
        expect.stringMatching(/^mounts\[2\]: .*is not "host:container/),
        expect.stringMatching(/^workdir: must be an absolute path/),
        expect.stringMatching(/^user: must be "uid\[:gid\]"/),
        expect.stringMatching(/^env\.BAD-NAME: is not a valid variable name/),
      ]),
    );
    expect(found).toHaveLength(10);
  });

  test('the error message lists the problems by the names the code uses', () => {
    expect(() => resolveDockerSettings({ read_only: false } as never)).toThrow(
      'The settings of dockerSandbox() have 1 problem:\n  dockerSandbox(): [sandbox.docker] read_only: unknown setting `read_only` — did you mean `readOnly`?',
    );
  });

  test('two mounts on one container path are refused', () => {
    expect(problems({ mounts: ['/a:/w', '/b:/w'] })).toEqual([
      'mounts[1]: mounts /w twice; give each mount its own container path',
    ]);
  });
});

describe('[sandbox.docker]', () => {
  const load = (text: string) =>
    loadConfig([{ text, source: 'hookline.toml' }], {
      runners: [commandRunner()],
      settingsTables: [dockerSandbox.settingsTable],
    });

  test('the table is snake_case; the factory receives it validated, in its own camelCase', () => {
    const config = load(
      '[sandbox]\nprovider = "docker"\n\n[sandbox.docker]\nread_only = false\ncap_add = ["NET_BIND_SERVICE"]\nkill_grace_ms = 500\nmemory = "1g"\n',
    );
    const settings = config.settings['sandbox.docker'] as NonNullable<Parameters<typeof dockerSandbox>[0]>;
    expect(settings).toEqual({ readOnly: false, capAdd: ['NET_BIND_SERVICE'], killGraceMs: 500, memory: '1g' });
    expect(config.warnings).toEqual([]);
    expect(resolveDockerSettings(settings)).toMatchObject({
      readOnly: false,
      capAdd: ['NET_BIND_SERVICE'],
      killGraceMs: 500,
      memoryBytes: 1024 ** 3,
    });
    expect(dockerSandbox(settings).name).toBe('docker');
  });

  test('the camelCase names keep working, each with a deprecation warning naming its snake_case key', () => {
    const config = load('[sandbox.docker]\nreadOnly = false\nnoNewPrivileges = true\nimage = "alpine:3"\n');
    expect(config.settings['sandbox.docker']).toEqual({ readOnly: false, noNewPrivileges: true, image: 'alpine:3' });
    expect(config.warnings).toEqual([
      'hookline.toml:2: [sandbox.docker] `readOnly` is deprecated; write `read_only` (snake_case, as hook keys are)',
      'hookline.toml:3: [sandbox.docker] `noNewPrivileges` is deprecated; write `no_new_privileges` (snake_case, as hook keys are)',
    ]);
  });

  test('bad settings are config issues at their lines, with suggestions in snake_case', () => {
    expect(() => load('[sandbox.docker]\nmemory = "1k"\nreadonly = true\n')).toThrow(
      expect.objectContaining({
        issues: [
          expect.objectContaining({
            line: 2,
            message: expect.stringContaining("[sandbox.docker] `memory` must be at least 6 MiB (Docker's minimum)"),
          }),
          expect.objectContaining({
            line: 3,
            message: 'unknown setting `readonly` in [sandbox.docker]',
            fix: 'did you mean `read_only`?',
          }),
        ],
      }),
    );
  });
});

describe('dockerSettingsSchema', () => {
  test('validates a [sandbox.docker] table as data, for the CLI', () => {
    expect(
      v.safeParse(dockerSettingsSchema, { image: 'busybox:stable', memory: 268_435_456, mounts: ['./:/workspace:ro'] })
        .success,
    ).toBe(true);
    const result = v.safeParse(dockerSettingsSchema, { network: 3 });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toMatch(/must be a string/);
    expect(v.getDotPath(result.issues![0])).toBe('network');
  });
});

describe('parseByteSize', () => {
  test.each([
    [1024, 1024],
    ['512m', 512 * 1024 ** 2],
    ['512MiB', 512 * 1024 ** 2],
    ['512 MB', 512 * 1024 ** 2],
    ['1g', 1024 ** 3],
    ['64k', 65_536],
    ['100', 100],
    ['1.5g', 1.5 * 1024 ** 3],
  ])('%s is %d bytes', (input, bytes) => {
    expect(parseByteSize(input)).toBe(bytes);
  });

  test.each(['lots', '-5m', '5x', '', 1.5, -1])('%s is not a size', (input) => {
    expect(parseByteSize(input)).toBeUndefined();
  });
});
