import { ConfigError, loadConfig } from '@hookline/core';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { hookToml } from '../test-support/hooks.ts';
import { llmRunner } from './llm-runner.ts';
import { DEFAULT_MODELS, MODELS_CHOSEN_ON, modelsSchema, modelTable, resolveModel } from './models.ts';

describe('resolveModel', () => {
  test('aliases map through the table, full ids pass through, the default is haiku', () => {
    expect(resolveModel(undefined, DEFAULT_MODELS)).toEqual({ ok: true, id: 'claude-haiku-5-5' });
    expect(resolveModel('sonnet', DEFAULT_MODELS)).toEqual({ ok: true, id: 'claude-sonnet-5-5' });
    expect(resolveModel('opus', DEFAULT_MODELS)).toEqual({ ok: true, id: 'claude-opus-5-5' });
    expect(resolveModel('claude-3-7-sonnet-20250219', DEFAULT_MODELS)).toEqual({
      ok: true,
      id: 'claude-3-7-sonnet-20250219',
    });
  });

  test('an unknown alias names the known ones and the way out', () => {
    const resolution = resolveModel('sonet', DEFAULT_MODELS);
    expect(resolution).toEqual({
      ok: false,
      message:
        'unknown model alias "sonet": use one of "haiku", "sonnet", "opus", add it to the [models] table, or give a full model id starting with "claude-"',
    });
  });

  test('prototype names are not aliases', () => {
    expect(resolveModel('constructor', DEFAULT_MODELS).ok).toBe(false);
    expect(resolveModel('toString', DEFAULT_MODELS).ok).toBe(false);
  });

  test('the table records when its ids were chosen', () => {
    expect(MODELS_CHOSEN_ON).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('the models setting ([models] in a config)', () => {
  test('adds aliases and overrides built-in ones', () => {
    const table = modelTable({ haiku: 'claude-haiku-4-5', judge: 'claude-opus-4-8' });
    expect(resolveModel('haiku', table)).toEqual({ ok: true, id: 'claude-haiku-4-5' });
    expect(resolveModel('judge', table)).toEqual({ ok: true, id: 'claude-opus-4-8' });
    expect(resolveModel('sonnet', table)).toEqual({ ok: true, id: 'claude-sonnet-5-5' });
  });

  test('modelsSchema validates the table a host parsed from TOML', () => {
    expect(v.safeParse(modelsSchema, { fast: 'claude-haiku-4-5' }).success).toBe(true);
    expect(v.safeParse(modelsSchema, { fast: 42 }).success).toBe(false);
    expect(v.safeParse(modelsSchema, { fast: '' }).success).toBe(false);
    expect(v.safeParse(modelsSchema, { 'two words': 'claude-x' }).success).toBe(false);
  });

  test('[models] is a settings table: the loader validates it at each line, the runner gets it as { models }', () => {
    const load = (text: string) =>
      loadConfig([{ text, source: 'hookline.toml' }], {
        runners: [llmRunner()],
        settingsTables: [llmRunner.settingsTable],
      });
    const config = load('[models]\njudge = "claude-opus-4-8"\n');
    expect(config.settings['models']).toEqual({ models: { judge: 'claude-opus-4-8' } });
    const runner = llmRunner(config.settings['models'] as Parameters<typeof llmRunner>[0]);
    expect(runner.types['prompt']!.check?.({ prompt: 'x', model: 'judge' })).toEqual([]);
    expect(() => load('[models]\nfast = "claude-haiku-4-5"\n"two words" = "claude-x"\nslow = 3\n')).toThrow(
      expect.objectContaining({
        issues: [
          expect.objectContaining({
            line: 3,
            message: expect.stringContaining('[models] `two words` must be a model alias'),
          }),
          expect.objectContaining({ line: 4, message: expect.stringContaining('[models] `slow` must be a model id') }),
        ],
      }),
    );
  });

  test('an invalid setting is a programming error', () => {
    expect(() => llmRunner({ models: { fast: 42 as unknown as string } })).toThrow(
      /llmRunner: invalid models setting: fast must be a model id/,
    );
    expect(() => llmRunner({ maxRetries: -1 })).toThrow(
      expect.objectContaining({ code: 'HOOKLINE_INVALID_OPTION', option: 'maxRetries' }),
    );
  });
});

describe('keys at load', () => {
  const load = (keys: Record<string, string | number | boolean>, models?: Record<string, string>) =>
    loadConfig([{ text: hookToml({ event: 'stage_start', ...keys }), source: 'hookline.toml' }], {
      runners: [llmRunner({ models })],
    });

  test('defaults: prompt 30 s, agent 60 s, both fail open; the effective name uses the prompt’s first 20 characters', () => {
    const [prompt] = load({ type: 'prompt', prompt: 'Is this change safe to deploy today?' }).hooks;
    expect(prompt).toMatchObject({
      name: 'stage_start:Is this change safe ',
      timeoutMs: 30_000,
      onError: 'proceed',
      sandbox: true,
      options: { prompt: 'Is this change safe to deploy today?' },
    });
    const [agent] = load({ type: 'agent', prompt: 'Look around', max_tool_rounds: 5 }).hooks;
    expect(agent).toMatchObject({
      name: 'stage_start:Look around',
      timeoutMs: 60_000,
      onError: 'proceed',
      options: { max_tool_rounds: 5 },
    });
  });

  test('an unknown alias is a load error on the model line; a [models] alias and a full id load', () => {
    let caught: unknown;
    try {
      load({ type: 'prompt', prompt: 'Check.', model: 'gpt-4o' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const [issue] = (caught as ConfigError).issues;
    expect(issue).toMatchObject({ file: 'hookline.toml', line: 5 });
    expect(issue?.message).toMatch(/unknown model alias "gpt-4o"/);
    expect(load({ type: 'agent', prompt: 'Check.', model: 'judge' }, { judge: 'claude-opus-4-8' }).hooks).toHaveLength(
      1,
    );
    expect(load({ type: 'prompt', prompt: 'Check.', model: 'claude-haiku-4-5' }).hooks).toHaveLength(1);
  });

  test('missing prompt, empty prompt, bad max_tool_rounds and a key of the other type are errors', () => {
    const messages = (keys: Record<string, string | number | boolean>) => {
      try {
        load(keys);
        return [];
      } catch (error) {
        return (error as ConfigError).issues.map((issue) => `${issue.message} ${issue.fix ?? ''}`);
      }
    };
    expect(messages({ type: 'prompt' })).toEqual([expect.stringMatching(/missing required key `prompt`/)]);
    expect(messages({ type: 'prompt', prompt: '  ' })).toEqual([expect.stringMatching(/`prompt` must not be empty/)]);
    expect(messages({ type: 'agent', prompt: 'x', max_tool_rounds: 0 })).toEqual([
      expect.stringMatching(/`max_tool_rounds` must be an integer from 1 to 1000/),
    ]);
    expect(messages({ type: 'prompt', prompt: 'x', max_tool_rounds: 3 })).toEqual([
      expect.stringMatching(/unknown key `max_tool_rounds` for a prompt hook.*belongs to agent hooks/),
    ]);
  });
});
