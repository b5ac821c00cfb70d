import * as v from 'valibot';
import { expect, test } from 'vitest';
import { standInCommandRunner, standInHttpRunner } from '../../test-support/stand-in-runners.ts';
import { configIssues } from '../../test-support/config-issues.ts';
import { configJsonSchema } from './config-json-schema.ts';
import { loadConfig } from './load-config.ts';

const runners = [standInCommandRunner().runner, standInHttpRunner().runner];

// The value at a path of keys and indexes in a JSON document.
function at(value: unknown, ...path: Array<string | number>): unknown {
  return path.reduce<unknown>(
    (node, key) =>
      typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined,
    value,
  );
}
const keysAt = (value: unknown, ...path: Array<string | number>): string[] =>
  Object.keys((at(value, ...path) as object | undefined) ?? {});

test('every preset is a valid `preset`, and durable is a common key', () => {
  const schema = configJsonSchema(runners);
  expect(at(schema, 'properties', 'preset', 'enum')).toEqual([
    'arc',
    'task',
    'agent',
    'gemini',
    'codex',
    'cursor',
    'copilot',
    'windsurf',
    'claude',
  ]);
  expect(keysAt(schema, 'properties', 'hooks', 'items', 'anyOf', 0, 'properties')).toContain('durable');
});

test('preset "task": hooks are a table of command lists per point, or [[hooks]] tables', () => {
  const schema = configJsonSchema(runners, 'task');
  expect(at(schema, 'properties', 'hooks', 'anyOf', 0, 'type')).toBe('array');
  expect(keysAt(schema, 'properties', 'hooks', 'anyOf', 1, 'properties')).toEqual([
    'after_merge',
    'after_fail',
    'after_rework',
    'after_awaiting_human',
    'after_proposed',
  ]);
  expect(at(schema, 'properties', 'hooks', 'anyOf', 1, 'additionalProperties')).toBe(false);
});

test('preset "agent": hooks may have tool_name and an action of type shell or http', () => {
  const schema = configJsonSchema(runners, 'agent');
  const withAction = at(schema, 'properties', 'hooks', 'items', 'anyOf', 0);
  expect(keysAt(withAction, 'properties')).toEqual(
    expect.arrayContaining(['event', 'tool_name', 'action', 'timeout_ms']),
  );
  expect(keysAt(withAction, 'properties')).not.toContain('type');
  expect(
    [0, 1].map((index) => at(withAction, 'properties', 'action', 'anyOf', index, 'properties', 'type', 'const')),
  ).toEqual(['shell', 'http']);
  expect(keysAt(withAction, 'properties', 'action', 'anyOf', 1, 'properties')).toEqual([
    'type',
    'method',
    'url',
    'headers',
  ]);
});

test('preset "claude": hooks are an object of matcher groups per event, with Claude Code key names', () => {
  const schema = configJsonSchema(runners, 'claude');
  expect(keysAt(schema, 'properties', 'hooks', 'properties')).toContain('PreToolUse');
  expect(keysAt(schema, 'properties', 'hooks', 'properties')).toHaveLength(12);
  const group = at(schema, 'properties', 'hooks', 'properties', 'PreToolUse', 'items');
  expect(keysAt(group, 'properties')).toEqual(['matcher', 'hooks']);
  const variants = at(group, 'properties', 'hooks', 'items', 'anyOf') as Array<Record<string, unknown>>;
  const http = variants.find((variant) => at(variant, 'properties', 'type', 'const') === 'http')!;
  expect(keysAt(http, 'properties')).toEqual(expect.arrayContaining(['url', 'timeout', 'on_error']));
});

test("a runner type's key rules are if/then in the schema, where the loader checks them too", () => {
  const http = standInHttpRunner().runner;
  const rule = {
    when: { tls: v.optional(v.picklist(['verify'])) },
    then: { url: v.pipe(v.string(), v.startsWith('https://')) },
    key: 'url',
    message: 'https only',
  };
  const ruled = { ...http, types: { http: { ...http.types['http']!, rules: [rule] } } };
  const schema = configJsonSchema([ruled]);
  expect(at(schema, 'properties', 'hooks', 'items', 'anyOf', 0, 'allOf')).toEqual([
    {
      if: { type: 'object', properties: { tls: { type: 'string', enum: ['verify'] } }, required: [] },
      then: { type: 'object', properties: { url: { type: 'string', pattern: '^https://' } }, required: ['url'] },
    },
  ]);
  const issues = configIssues(() =>
    loadConfig(
      [{ text: '[[hooks]]\nevent = "run_start"\ntype = "http"\nurl = "http://x.example"\n', source: 'r.toml' }],
      { runners: [ruled] },
    ),
  );
  expect(issues).toEqual(['r.toml:4: hooks[0] "run_start:http://x.example": https only']);
  expect(
    loadConfig(
      [{ text: '[[hooks]]\nevent = "run_start"\ntype = "http"\nurl = "https://x.example"\n', source: 'r.toml' }],
      { runners: [ruled] },
    ).hooks,
  ).toHaveLength(1);
});
