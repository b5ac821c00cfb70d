import { arcPreset } from '@hookline/core';
import { expect, test } from 'vitest';
import { contextFieldKinds } from './context-fields.ts';
import { parseSet } from './parse-set.ts';

const kinds = contextFieldKinds(arcPreset);

test('documented text fields keep the text as it is', () => {
  expect(parseSet('node_id=007', kinds)).toEqual({ key: 'node_id', value: '007' });
  expect(parseSet('status=true', kinds)).toEqual({ key: 'status', value: 'true' });
  expect(parseSet('failure_reason=a=b', kinds)).toEqual({ key: 'failure_reason', value: 'a=b' });
  expect(parseSet('edge_label=', kinds)).toEqual({ key: 'edge_label', value: '' });
});

test('integer fields need a whole number', () => {
  expect(parseSet('attempt=2', kinds)).toEqual({ key: 'attempt', value: 2 });
  expect(parseSet('max_attempts=-1', kinds)).toEqual({ key: 'max_attempts', value: -1 });
  for (const bad of ['attempt=abc', 'attempt=1.5', 'attempt=', 'max_attempts=3x']) expect(() => parseSet(bad, kinds)).toThrow(/is an integer field/);
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
