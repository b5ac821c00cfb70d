import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { OUTCOME_EXTRAS } from './decisions/decision.ts';
import { builtInPresets } from './presets/built-in-presets.ts';

// Everything Hookline knows of one preset lives in that preset's folder (packages/core/src/presets/<name>/);
// the engine, the config loader, the runners and the CLI read presets through the Preset interface.
// This test reads the code of every package outside the presets' folders and fails when it names a
// preset, one of a preset's events or context fields, or a built-in preset's exports.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const presetsFolder = join(root, 'packages', 'core', 'src', 'presets');

// Words that are Hookline's own (or another protocol's) as well as a preset's: the decision JSON every
// hook answers with (`edge_to` for `override`, the extras), context fields every preset may carry,
// the journal's `[journal] max_attempts` setting, and the LLM APIs' `tool_use_id`.
const OTHER_WORDS = new Set([
  'event',
  'cwd',
  'sandbox',
  'decision',
  'reason',
  'edge_to',
  'stop_reason',
  ...OUTCOME_EXTRAS,
  'max_attempts',
  'tool_use_id',
  // Copilot's payload fields that are also everyday identifiers elsewhere (a hook's name, a model's stop reason).
  'hookName',
  'stopReason',
]);

// User-facing texts only: help and error messages that show an example command line or input for
// the default preset. Each entry is one file and the text it may hold.
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  // The commands' help texts, and nothing else.
  'packages/cli/src/command-specs.ts': [''],
  'packages/cli/src/context/build-context.ts': ['give a JSON object such as {"node_id": "build"}'],
  'packages/cli/src/context/parse-set.ts': ['for example --set node_id=build'],
  'packages/cli/src/stream/answer-line.ts': ['each line must be a JSON object: {"event": "…", "run_id": "…", …}'],
  // `agent` here is the docker sandbox's helper process in the container, not the preset.
  'packages/sandbox-docker/src/run-sandbox.ts': ["RunContainer['agent']"],
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory())
      return path === presetsFolder || entry.name === 'testing' || entry.name === 'node_modules'
        ? []
        : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.test-d.ts')
      ? [path]
      : [];
  });
}

// Comments explain with examples ("`claude`: its settings files"); only code must not know a preset.
function withoutComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const presets = builtInPresets.all;
const names = presets.map((preset) => preset.name);
// Distinctive words only: an event or field name with `_` or an inner capital (`run_start`, `PreToolUse`).
const distinctive = (word: string): boolean => /_|[a-z][A-Z]/.test(word) && !OTHER_WORDS.has(word);
const words = [
  ...new Set(
    presets.flatMap((preset) => [
      ...preset.events.map((event) => event.name),
      ...Object.keys(preset.context),
      preset.sessionField,
    ]),
  ),
].filter(distinctive);
const patterns = [
  // A preset's name as a string: 'claude', "task".
  new RegExp(`(['"\`])(?:${names.map(escaped).join('|')})\\1`),
  // A built-in preset's own exports: claudePreset, readClaudeAnswer, taskHookName.
  new RegExp(
    `\\b(?:(?:${names.map(escaped).join('|')})(?:Preset|HookName|Matcher)|(?:read|write)(?:${names.map((name) => escaped(name[0]!.toUpperCase() + name.slice(1))).join('|')})Answer)\\b`,
  ),
  new RegExp(`\\b(?:${words.map(escaped).join('|')})\\b`),
];

test("no code outside the presets' folders names a preset, its events or its context fields", () => {
  // Hookline's own packages; examples/ holds hosts and third-party plugins, which name their presets.
  const hits = readdirSync(join(root, 'packages')).flatMap((name) => {
    let files: string[];
    try {
      files = sourceFiles(join(root, 'packages', name, 'src'));
    } catch {
      return [];
    }
    return files.flatMap((file) => {
      const allowed = ALLOWED[relative(root, file)] ?? [];
      return withoutComments(readFileSync(file, 'utf8'))
        .split('\n')
        .flatMap((line, index) =>
          patterns.some((pattern) => pattern.test(line)) && !allowed.some((text) => line.includes(text))
            ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`]
            : [],
        );
    });
  });
  expect(hits).toEqual([]);
});

test('the check knows what to look for', () => {
  expect(names).toEqual(['arc', 'task', 'agent', 'gemini', 'codex', 'cursor', 'copilot', 'windsurf', 'claude']);
  expect(words).toEqual(expect.arrayContaining(['workflow_name', 'PreToolUse', 'hook_event_name', 'after_merge']));
  expect(patterns.some((pattern) => pattern.test("const preset = 'claude';"))).toBe(true);
  expect(patterns.some((pattern) => pattern.test('import { readClaudeAnswer } from "@hookline/core";'))).toBe(true);
  expect(patterns.some((pattern) => pattern.test("context['workflow_name']"))).toBe(true);
  expect(patterns.some((pattern) => pattern.test('outcome.edge_to ?? reason'))).toBe(false);
  expect(patterns.some((pattern) => pattern.test('type AgentAnswer = string;'))).toBe(false);
});
