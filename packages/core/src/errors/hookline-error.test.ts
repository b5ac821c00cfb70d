import { describe, expect, test, vi } from 'vitest';
import { ConfigError } from './config-error.ts';
import { EngineClosedError } from './engine-closed-error.ts';
import { HooklineError } from './hookline-error.ts';
import { InvalidContextError } from './invalid-context-error.ts';
import { InvalidOptionError } from './invalid-option-error.ts';
import { JournalError } from './journal-error.ts';
import { PluginError } from './plugin-error.ts';
import { SettingsError } from './settings-error.ts';
import { UnknownEventError } from './unknown-event-error.ts';
import { scriptedEngines } from '../../test-support/scripted-engines.ts';

// One instance of every error class core exports, keyed by its class.
const examples = [
  [ConfigError, new ConfigError([{ file: 'hookline.toml', line: 3, message: 'bad' }])],
  [EngineClosedError, new EngineClosedError()],
  [InvalidContextError, new InvalidContextError('not an object')],
  [
    InvalidOptionError,
    new InvalidOptionError('createHookEngine', 'concurrency', 'concurrency must be a positive integer, got 0.'),
  ],
  [JournalError, new JournalError('cannot open')],
  [PluginError, new PluginError('two runners claim "command"')],
  [
    SettingsError,
    new SettingsError('HOOKLINE_TEST_SETTINGS_INVALID', 'testSandbox()', 'sandbox.test', [
      { key: 'memory', message: 'must be a size' },
    ]),
  ],
  [UnknownEventError, new UnknownEventError('stage_strat', 'arc', ['stage_start'], 'stage_start')],
] as const;

describe('isInstance', () => {
  test.each(examples.map(([errorClass, error]) => ({ name: errorClass.name, errorClass, error })))(
    '$name is recognised by its own class and HooklineError, and by no sibling',
    ({ errorClass, error }) => {
      expect(errorClass.isInstance(error)).toBe(true);
      expect(HooklineError.isInstance(error)).toBe(true);
      for (const [other] of examples) {
        // SettingsError is a ConfigError: the one place where another class answers yes.
        const expected = other === errorClass || (other === ConfigError && error instanceof SettingsError);
        expect(other.isInstance(error), `${other.name}.isInstance(${errorClass.name})`).toBe(expected);
      }
    },
  );

  test('a subclass is an instance of its parents; a parent is not an instance of its subclass', () => {
    const settings = new SettingsError('HOOKLINE_TEST_SETTINGS_INVALID', 'testSandbox()', 'sandbox.test', []);
    expect(ConfigError.isInstance(settings)).toBe(true);
    expect(SettingsError.isInstance(new ConfigError([]))).toBe(false);
    expect(PluginError.isInstance(new HooklineError('HOOKLINE_X', 'plain'))).toBe(false);
  });

  test("a third party's subclass gets its own marker without writing isInstance", () => {
    class ThirdPartyError extends PluginError {}
    class OtherError extends PluginError {}
    const error = new ThirdPartyError('mine');
    expect(ThirdPartyError.isInstance(error)).toBe(true);
    expect(PluginError.isInstance(error)).toBe(true);
    expect(OtherError.isInstance(error)).toBe(false);
    expect(ThirdPartyError.isInstance(new PluginError('not mine'))).toBe(false);
  });

  test('classes without a name do not share a marker', () => {
    const First = class extends HooklineError {};
    const Second = (() => class extends HooklineError {})();
    expect(First.isInstance(new First('A', 'a'))).toBe(true);
    expect(Second.isInstance(new First('A', 'a'))).toBe(false);
  });

  test('anything that is not an error is not an instance', () => {
    for (const value of [
      undefined,
      null,
      'HooklineError',
      42,
      {},
      new Error('plain'),
      { code: 'HOOKLINE_CONFIG_INVALID', issues: [] },
    ]) {
      expect(HooklineError.isInstance(value)).toBe(false);
      expect(ConfigError.isInstance(value)).toBe(false);
    }
  });

  test('errors of another copy of core are recognised, where instanceof fails', async () => {
    const first = { ...(await import('../index.ts')), ...(await import('../plugin.ts')) };
    vi.resetModules();
    const second = { ...(await import('../index.ts')), ...(await import('../plugin.ts')) };
    expect(second.ConfigError).not.toBe(first.ConfigError);

    const error = new second.ConfigError([{ file: 'hookline.toml', message: 'bad' }]);
    expect(error instanceof first.ConfigError).toBe(false);
    expect(first.ConfigError.isInstance(error)).toBe(true);
    expect(first.HooklineError.isInstance(error)).toBe(true);
    expect(first.PluginError.isInstance(error)).toBe(false);
    expect(
      first.SettingsError.isInstance(new second.SettingsError('HOOKLINE_TEST', 'testSandbox()', 'sandbox.test', [])),
    ).toBe(true);
    expect(second.UnknownEventError.isInstance(new first.UnknownEventError('x', 'arc', [], undefined))).toBe(true);
  });
});

test('a settings error lists its problems as config issues naming the table and key', () => {
  const error = new SettingsError('HOOKLINE_TEST_SETTINGS_INVALID', 'testSandbox()', 'sandbox.test', [
    { key: 'memory', message: 'must be a size such as "512m"' },
    { key: '', message: 'must be a table' },
  ]);
  expect(error.code).toBe('HOOKLINE_TEST_SETTINGS_INVALID');
  expect(error.issues[0]).toEqual({
    file: 'testSandbox()',
    setting: { table: 'sandbox.test', key: 'memory' },
    message: 'must be a size such as "512m"',
  });
  expect(error.message).toBe(
    'The settings of testSandbox() have 2 problems:\n  testSandbox(): [sandbox.test] memory: must be a size such as "512m"\n  testSandbox(): [sandbox.test]: must be a table',
  );
});

const { engineFor } = scriptedEngines();

test('misuse of createHookEngine throws an InvalidOptionError naming the option, with a stable code', () => {
  let caught: unknown;
  try {
    engineFor('', { concurrency: 0 });
  } catch (error) {
    caught = error;
  }
  expect(InvalidOptionError.isInstance(caught) && { code: caught.code, option: caught.option }).toEqual({
    code: 'HOOKLINE_INVALID_OPTION',
    option: 'concurrency',
  });
});
