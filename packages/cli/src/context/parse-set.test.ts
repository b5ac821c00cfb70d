import { agentPreset, arcPreset, claudePreset, taskPreset } from '@hookline/core';
import { expect, test } from 'vitest';
import { contextFieldTypes } from './context-fields.ts';
import { parseSet } from './parse-set.ts';

const kinds = contextFieldTypes(arcPreset);

test('documented text fields keep the text as it is', () => {
  expect(parseSet('node_id=007', kinds)).toEqual({ key: 'node_id', value: '007' });
  expect(parseSet('status=true', kinds)).toEqual({ key: 'status', value: 'true' });
  expect(parseSet('failure_reason=a=b', kinds)).toEqual({ key: 'failure_reason', value: 'a=b' });
  expect(parseSet('edge_label=', kinds)).toEqual({ key: 'edge_label', value: '' });
});

test('integer fields need a whole number', () => {
  expect(parseSet('attempt=2', kinds)).toEqual({ key: 'attempt', value: 2 });
  expect(parseSet('max_attempts=-1', kinds)).toEqual({ key: 'max_attempts', value: -1 });
  for (const bad of ['attempt=abc', 'attempt=1.5', 'attempt=', 'max_attempts=3x'])
    expect(() => parseSet(bad, kinds)).toThrow(/is an integer field/);
});

test('other fields are JSON when they parse, else text', () => {
  expect(parseSet('retries=3', kinds).value).toBe(3);
  expect(parseSet('dry=false', kinds).value).toBe(false);
  expect(parseSet('tags=["a","b"]', kinds).value).toEqual(['a', 'b']);
  expect(parseSet('meta={"a":1}', kinds).value).toEqual({ a: 1 });
  expect(parseSet('quoted="3"', kinds).value).toBe('3');
  expect(parseSet('note=hello world', kinds).value).toBe('hello world');
  expect(parseSet('gone=null', kinds).value).toBeNull();
});

test('malformed assignments and `event` are usage errors', () => {
  expect(() => parseSet('node_id', kinds)).toThrow(/--set needs key=value/);
  expect(() => parseSet('=x', kinds)).toThrow(/--set needs key=value/);
  expect(() => parseSet('event=run_start', kinds)).toThrow(/first argument/);
});

test("the preset's schema types the field: task's attempt is text, arc's a count", () => {
  expect(parseSet('attempt=t-42-2', contextFieldTypes(taskPreset))).toEqual({ key: 'attempt', value: 't-42-2' });
  expect(parseSet('attempt=2', contextFieldTypes(taskPreset))).toEqual({ key: 'attempt', value: '2' });
  expect(() => parseSet('attempt=t-42-2', kinds)).toThrow(/attempt is an integer field/);
});

test('object, array, number and boolean fields need JSON of their type', () => {
  const agent = contextFieldTypes(agentPreset);
  expect(parseSet('tool_input={"command":"ls"}', agent).value).toEqual({ command: 'ls' });
  expect(parseSet('duration_secs=1.5', agent).value).toBe(1.5);
  expect(parseSet('duration_secs=3', agent).value).toBe(3);
  for (const bad of ['tool_input=ls', 'tool_input=[1]', 'tool_input=null', 'tool_input="x"'])
    expect(() => parseSet(bad, agent)).toThrow(/tool_input is an object field; give a JSON object/);
  expect(() => parseSet('duration_secs=soon', agent)).toThrow(/is a number field/);
  const claude = contextFieldTypes(claudePreset);
  expect(parseSet('permission_suggestions=[{"type":"x"}]', claude).value).toEqual([{ type: 'x' }]);
  expect(parseSet('stop_hook_active=true', claude).value).toBe(true);
  expect(() => parseSet('permission_suggestions={}', claude)).toThrow(/is an array field/);
  expect(() => parseSet('stop_hook_active=yes', claude)).toThrow(/is a true\/false field; give true or false/);
});

test('matcher fields the schema does not list are text', () => {
  expect(parseSet('tool_name=007', kinds).value).toBe('007');
});
