import { describe, expect, test } from 'vitest';
import { ConfigError } from '../errors/config-error.ts';
import { scriptedRunner } from '../testing/scripted-runner.ts';
import { MAX_CONFIG_BYTES, MAX_CONFIG_STRING_BYTES, MAX_HOOKS } from './config-bounds.ts';
import { loadConfig } from './load-config.ts';

// The scripted runner stands in for any runner; its `reason` is a free string, as a command is.
const runners = [scriptedRunner()];
const issuesOf = (text: string, source = 'hookline.toml'): string[] => {
  try {
    loadConfig([{ text, source }], { runners });
  } catch (error) {
    if (error instanceof ConfigError)
      return error.issues.map((issue) => `${issue.file}:${issue.line ?? '-'}: ${issue.message} — ${issue.fix ?? ''}`);
    throw error;
  }
  return [];
};
const hooks = (count: number): string =>
  Array.from(
    { length: count },
    (_, index) => `[[hooks]]\nname = "h${index}"\nevent = "run_start"\ntype = "scripted"\n`,
  ).join('');
// Memory the test process holds now, after a collection where the runtime allows one.
const heapUsed = (): number => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};

describe('config bounds', () => {
  test(`a config of ${MAX_HOOKS} hooks loads; one more is an error naming the limit`, () => {
    expect(issuesOf(hooks(MAX_HOOKS))).toEqual([]);
    expect(issuesOf(hooks(MAX_HOOKS + 1))).toEqual([
      `hookline.toml:-: the configuration has ${MAX_HOOKS + 1} hooks, more than the ${MAX_HOOKS} a configuration may have — remove hooks, or give a hook a matcher and let it handle many cases (one hook per event and node is rarely needed)`,
    ]);
  });

  test('the hook limit counts the layers merged: two files of 6 000 hooks each are too many together', () => {
    const half = (prefix: string) =>
      Array.from(
        { length: 6_000 },
        (_, index) => `[[hooks]]\nname = "${prefix}${index}"\nevent = "run_start"\ntype = "scripted"\n`,
      ).join('');
    expect(() =>
      loadConfig(
        [
          { text: half('a'), source: 'user.toml' },
          { text: half('b'), source: 'project.toml' },
        ],
        { runners },
      ),
    ).toThrow('the configuration has 12000 hooks');
  });

  for (const [form, text] of [
    ['TOML', `# ${'x'.repeat(MAX_CONFIG_BYTES)}\n`],
    [
      'TOML of multi-byte characters (4 MiB of bytes in fewer characters)',
      `# ${'é'.repeat(MAX_CONFIG_BYTES / 2 + 1)}\n`,
    ],
  ] as const) {
    test(`a config file over ${MAX_CONFIG_BYTES} bytes (${form}) is refused before it is parsed`, () => {
      expect(issuesOf(text)).toEqual([
        expect.stringMatching(
          /^hookline\.toml:-: the config is 4\.0 MiB \(\d+ bytes\), more than the 4 MiB a config may have — split it/,
        ),
      ]);
    });
  }

  test('a JSON settings file over the size is refused the same way', () => {
    expect(issuesOf(`{"hooks": {}, "pad": "${'x'.repeat(MAX_CONFIG_BYTES)}"}`, 'settings.json')).toEqual([
      expect.stringContaining('settings.json:-: the config is 4.0 MiB'),
    ]);
  });

  // Checked before validation, so the runner does not need to know the key.
  for (const [key, body] of [
    ['command', (long: string) => `[[hooks]]\nname = "big"\nevent = "run_start"\ncommand = "${long}"\n`],
    [
      'matcher',
      (long: string) => `[[hooks]]\nname = "big"\nevent = "stage_start"\ncommand = "true"\nmatcher = "${long}"\n`,
    ],
    ['name', (long: string) => `[[hooks]]\nname = "${long}"\nevent = "run_start"\ntype = "scripted"\n`],
  ] as const) {
    test(`a ${key} over ${MAX_CONFIG_STRING_BYTES} bytes is one clear error with its key and line, and loading it stays cheap in memory`, () => {
      const before = heapUsed();
      const issues = issuesOf(`preset = "arc"\n\n${body('a'.repeat(MAX_CONFIG_STRING_BYTES + 1))}`);
      expect(issues).toEqual([
        `hookline.toml:${key === 'name' ? 4 : key === 'matcher' ? 7 : 6}: hooks[0].${key} is 256.0 KiB, more than the 256 KiB a string in a config may have — move it into a file that the hook runs or reads (command = "./scripts/check.sh", script file = "…")`,
      ]);
      // Refused before validation: what is left held is small (the 50 MB command of the report took about 1 GB).
      expect(heapUsed() - before).toBeLessThan(64 * 1024 * 1024);
    });
  }

  test(`a string of exactly ${MAX_CONFIG_STRING_BYTES} bytes is accepted`, () => {
    expect(
      issuesOf(
        `[[hooks]]\nname = "big"\nevent = "run_start"\ntype = "scripted"\nreason = "${'a'.repeat(MAX_CONFIG_STRING_BYTES)}"\n`,
      ),
    ).toEqual([]);
  });

  test('a 50 MB command (the reported input) is refused by the file size, with bounded memory', () => {
    const before = heapUsed();
    const issues = issuesOf(`[[hooks]]\nevent = "run_start"\ncommand = "${'a'.repeat(50 * 1024 * 1024)}"\n`);
    expect(issues).toEqual([expect.stringContaining('more than the 4 MiB a config may have')]);
    expect(heapUsed() - before).toBeLessThan(64 * 1024 * 1024);
  });
});
