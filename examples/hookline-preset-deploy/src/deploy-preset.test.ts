import { ConfigError, configJsonSchema, createHookEngine, loadConfig, PresetError } from '@hookline/core';
import { definePreset, PluginError } from '@hookline/core/plugin';
import { scriptedRunner } from '@hookline/core/testing';
import { describe, expect, test } from 'vitest';
import deployDefault, { deployPreset } from './index.ts';

const runners = [scriptedRunner()];
const load = (text: string, source = 'hookline.toml') =>
  loadConfig([{ source, text }], { runners, presets: [deployPreset] });
const engineFor = (text: string) => createHookEngine({ config: load(text), runners, presets: [deployPreset] });

describe('the deploy preset', () => {
  test("is the package default export too, and speaks this core's preset interface", () => {
    expect(deployDefault).toBe(deployPreset);
    expect(deployPreset.presetInterfaceVersion).toBe('v1');
  });

  test('a before_deploy hook that blocks stops the deploy, and the answer is written as exit 1 with the reason', async () => {
    const engine = engineFor(
      'preset = "deploy"\n\n[[hooks]]\nname = "freeze"\nevent = "before_deploy"\nmatcher = "^production$"\ntype = "scripted"\ndecision = "block"\nreason = "release freeze"\n',
    );
    const blocked = await engine.emit('before_deploy', { deploy_id: 'd1', service: 'web', environment: 'production' });
    expect(blocked).toMatchObject({ decision: 'block', decided_by: 'freeze', reason: 'release freeze' });
    expect(deployPreset.writeAnswer!(blocked, 'before_deploy')).toEqual({ exitCode: 1, stderr: 'release freeze\n' });
    // The matcher is tried against the preset's matcher fields: staging is not matched.
    const staging = await engine.emit('before_deploy', { deploy_id: 'd2', service: 'web', environment: 'staging' });
    expect(staging.decision).toBe('proceed');
    expect(deployPreset.writeAnswer!(staging, 'before_deploy')).toEqual({ exitCode: 0 });
    await engine.close();
  });

  test("another preset's event in a deploy config is refused, naming the events it has", () => {
    const error = (() => {
      try {
        load('preset = "deploy"\n\n[[hooks]]\nevent = "run_start"\ntype = "scripted"\n');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain(
      'the event "run_start" belongs to preset "arc", not to preset "deploy"',
    );
  });

  test('a file named deploy-hooks.toml is recognised without preset = "deploy"', () => {
    const config = load('[[hooks]]\nevent = "after_deploy"\ntype = "scripted"\n', 'ops/deploy-hooks.toml');
    expect(config.preset).toBe('deploy');
  });

  test('without the plugin, core does not know it', () => {
    expect(() => loadConfig([{ source: 'hookline.toml', text: 'preset = "deploy"\n' }], { runners })).toThrow(
      /unknown preset "deploy"/,
    );
    const config = load('preset = "deploy"\n');
    expect(() => createHookEngine({ config, runners })).toThrow(PluginError);
  });

  test("the config's JSON Schema offers the preset's events", () => {
    const schema = JSON.stringify(configJsonSchema(runners, 'deploy', [], [deployPreset]));
    expect(schema).toContain('"before_deploy"');
    expect(schema).toContain('"deploy_failed"');
    expect(schema).not.toContain('"run_start"');
  });

  // The CLI's tests load it with the command runner (packages/cli/src/plugins/plugins.test.ts).
  test('its starter names the plugin and the preset, so the file it writes loads on its own', () => {
    const text = deployPreset.starter!.text({ remote: '' });
    expect(text).toContain('plugins = ["hookline-preset-deploy"]');
    expect(text).toContain('preset = "deploy"');
  });
});

test('definePreset lists every inconsistency at once', () => {
  const attempt = () =>
    definePreset({
      ...deployPreset,
      name: 'Deploy!',
      sessionField: 'release',
      events: [...deployPreset.events, deployPreset.events[0]!],
      sandboxEvents: { ready: 'deploy_ready', cleanup: 'after_deploy' },
    });
  expect(attempt).toThrow(PresetError);
  expect(attempt).toThrow(
    /name must be lowercase.*event "before_deploy" is listed twice.*sessionField "release".*sandbox event "deploy_ready"/,
  );
});
