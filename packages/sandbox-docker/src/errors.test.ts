import { ConfigError, HooklineError } from '@hookline/core';
import { PluginError, SettingsError } from '@hookline/core/plugin';
import { expect, test } from 'vitest';
import { DockerContainerError } from './docker-container-error.ts';
import { DockerExecError } from './docker-exec-error.ts';
import { DockerImageMissingError } from './docker-image-missing-error.ts';
import { DockerSettingsError } from './docker-settings-error.ts';
import { DockerUnavailableError } from './docker-unavailable-error.ts';

// No Docker engine needed: these are the error classes alone.
const examples = [
  [DockerContainerError, new DockerContainerError('no sh in the image')],
  [DockerExecError, new DockerExecError('start', 'no such working directory')],
  [DockerImageMissingError, new DockerImageMissingError('busybox:none', 'unix:///var/run/docker.sock')],
  [DockerSettingsError, new DockerSettingsError([{ key: 'memory', message: 'must be a size' }])],
  [
    DockerUnavailableError,
    new DockerUnavailableError('unix:///nonexistent.sock', Object.assign(new Error('gone'), { code: 'ENOENT' })),
  ],
] as const;

test.each(examples.map(([errorClass, error]) => ({ name: errorClass.name, errorClass, error })))(
  '$name is recognised by its own class and by no sibling',
  ({ errorClass, error }) => {
    expect(HooklineError.isInstance(error)).toBe(true);
    expect(PluginError.isInstance(error)).toBe(false);
    for (const [other] of examples)
      expect(other.isInstance(error), `${other.name}.isInstance(${errorClass.name})`).toBe(other === errorClass);
  },
);

test('DockerExecError answers for itself only, not for any Hookline error', () => {
  expect(DockerExecError.isInstance(new HooklineError('HOOKLINE_X', 'some other error'))).toBe(false);
  expect(DockerExecError.isInstance(new PluginError('a plugin problem'))).toBe(false);
});

test('settings problems are config issues: a ConfigError the CLI can place at its table', () => {
  const error = new DockerSettingsError([{ key: 'memory', message: 'must be a size' }]);
  expect(ConfigError.isInstance(error) && SettingsError.isInstance(error)).toBe(true);
  expect(error.code).toBe('HOOKLINE_DOCKER_SETTINGS_INVALID');
  expect(error.issues).toEqual([
    { file: 'dockerSandbox()', setting: { table: 'sandbox.docker', key: 'memory' }, message: 'must be a size' },
  ]);
});
