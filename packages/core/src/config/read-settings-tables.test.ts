import * as v from 'valibot';
import { expect, test } from 'vitest';
import { configIssues } from '../../test-support/config-issues.ts';
import { defineSettingsTable } from '../plugins/settings-table.ts';
import { snakeCaseTable } from '../plugins/snake-case-table.ts';
import { scriptedRunner } from '../testing/scripted-runner.ts';
import { configJsonSchema } from './config-json-schema.ts';
import { loadConfig } from './load-config.ts';

// A provider's settings as JavaScript spells them; the config table spells them snake_case.
const boxSettings = v.strictObject({
  image: v.optional(v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'))),
  readOnly: v.optional(v.boolean('must be true or false')),
  maxOutputBytes: v.optional(
    v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1')),
  ),
});
const box = snakeCaseTable('sandbox.box', 'Settings of the box sandbox.', boxSettings);
const models = defineSettingsTable({
  path: 'models',
  description: 'Model aliases.',
  schema: v.pipe(
    v.record(v.pipe(v.string(), v.regex(/^[a-z]+$/, 'must be a lower-case alias')), v.string('must be a model id')),
    v.transform((table) => ({ models: table })),
  ),
});
const runners = [scriptedRunner()];
const load = (...texts: string[]) =>
  loadConfig(
    texts.map((text, index) => ({ text, source: `layer${index}.toml` })),
    { runners, settingsTables: [box, models] },
  );

test("a declared table is validated into issues at the line of each key, every problem at once, with hooks' issues", () => {
  const issues = configIssues(() =>
    load(
      '[sandbox]\nprovider = "box"\n\n[sandbox.box]\nimage = ""\nread_only = "yes"\nmax_ouput_bytes = 5\n\n[models]\nJudge = "claude-x"\n\n[[hooks]]\nevent = "run_strat"\ntype = "scripted"\n',
    ),
  );
  expect(issues).toEqual([
    'layer0.toml:5: [sandbox.box] `image` must not be empty — fix the value of `image`',
    'layer0.toml:6: [sandbox.box] `read_only` must be true or false — fix the value of `read_only`',
    'layer0.toml:7: unknown setting `max_ouput_bytes` in [sandbox.box] — did you mean `max_output_bytes`?',
    'layer0.toml:10: [models] `Judge` must be a lower-case alias — fix the value of `Judge`',
    expect.stringContaining('layer0.toml:13: hooks[0]'),
  ]);
});

test("the factory gets the schema output: snake_case keys back in the code's camelCase, layers merged key by key", () => {
  const config = load(
    '[sandbox.box]\nimage = "alpine"\nread_only = false\n\n[models]\njudge = "claude-a"\n',
    '[sandbox.box]\nmax_output_bytes = 10\n\n[models]\nfast = "claude-b"\n',
  );
  expect(config.settings).toEqual({
    'sandbox.box': { image: 'alpine', readOnly: false, maxOutputBytes: 10 },
    models: { models: { judge: 'claude-a', fast: 'claude-b' } },
  });
  expect(config.warnings).toEqual([]);
});

test('the camelCase names still work, with a deprecation warning naming the snake_case key and its line', () => {
  const config = load('[sandbox.box]\nreadOnly = false\nmaxOutputBytes = 10\n');
  expect(config.settings['sandbox.box']).toEqual({ readOnly: false, maxOutputBytes: 10 });
  expect(config.warnings).toEqual([
    'layer0.toml:2: [sandbox.box] `readOnly` is deprecated; write `read_only` (snake_case, as hook keys are)',
    'layer0.toml:3: [sandbox.box] `maxOutputBytes` is deprecated; write `max_output_bytes` (snake_case, as hook keys are)',
  ]);
  // A bad value under the old name is reported at its line; both names at once is ambiguous.
  expect(configIssues(() => load('[sandbox.box]\nimage = "x"\nreadOnly = 1\n'))).toEqual([
    'layer0.toml:3: [sandbox.box] `read_only` must be true or false — fix the value of `read_only`',
  ]);
  expect(configIssues(() => load('[sandbox.box]\nreadOnly = true\nread_only = false\n'))).toEqual([
    'layer0.toml:2: [sandbox.box] sets both `readOnly` and `read_only` — remove `readOnly`, the former name of `read_only`',
  ]);
});

test('a table that is not a table, and a table nobody declared, are told apart', () => {
  expect(configIssues(() => load('models = "claude-x"\n'))).toEqual([
    'layer0.toml:1: `models` must be a table — write it as [models] with its settings below',
  ]);
  // [sandbox.other] belongs to a provider that declared nothing: it is passed through untouched.
  const config = load('[sandbox.other]\nanything = 1\n');
  expect(config.settings).toEqual({});
  expect(config.sandbox.settings).toEqual({ other: { anything: 1 } });
});

test('the JSON Schema describes every declared table at its path, closed to other keys, old names deprecated', () => {
  const schema = configJsonSchema(runners, 'arc', [box, models]) as {
    properties: Record<string, { properties?: Record<string, Record<string, unknown>>; description?: string }>;
  };
  const table = schema.properties['sandbox']!.properties!['box']!;
  expect(table['additionalProperties']).toBe(false);
  expect(Object.keys(table['properties'] as object)).toEqual([
    'image',
    'read_only',
    'max_output_bytes',
    'readOnly',
    'maxOutputBytes',
  ]);
  expect((table['properties'] as Record<string, { description: string }>)['readOnly']!.description).toBe(
    'Deprecated: write `read_only`.',
  );
  expect(schema.properties['models']).toMatchObject({
    type: 'object',
    description: 'Model aliases.',
    additionalProperties: { type: 'string' },
  });
});
