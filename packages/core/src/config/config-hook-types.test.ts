import { expect, test } from 'vitest';
import { configHookTypes } from './config-hook-types.ts';
import { readConfigSource } from './read-config-source.ts';

const read = (...texts: string[]) =>
  texts.map((text, index) => readConfigSource({ text, source: `layer${index}.toml` }));

test('the hook types of each dialect, before validation', () => {
  expect(
    configHookTypes(
      read(
        '[[hooks]]\nevent = "run_start"\ncommand = "true"\n[[hooks]]\nevent = "run_start"\ntype = "http"\nurl = "x"\n',
      ),
    ),
  ).toEqual(new Set(['command', 'http']));
  expect(configHookTypes(read('preset = "task"\n[hooks]\nafter_merge = ["git push"]\n'))).toEqual(new Set(['command']));
  expect(
    configHookTypes(
      read(
        'preset = "agent"\n[[hooks]]\nevent = "stop"\naction = { type = "http", url = "https://x.test" }\n',
        '[[hooks]]\nevent = "stop"\n[hooks.action]\ntype = "shell"\ncommand = "make"\n',
      ),
    ),
  ).toEqual(new Set(['http', 'command']));
  expect(configHookTypes(read('[[hooks]\n'))).toEqual(new Set());
});
