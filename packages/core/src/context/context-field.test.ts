import { describe, expect, test } from 'vitest';
import { InvalidContextError } from '../errors/invalid-context-error.ts';
import { builtInPresets } from '../presets/built-in-presets.ts';
import { requiredFields } from './context-field.ts';
import { checkContext } from './normalize-context.ts';

describe.each(builtInPresets.all)('preset $name', (preset) => {
  test('keys sessions by a required text field', () => {
    expect(requiredFields(preset.context)).toContain(preset.sessionField);
    for (const field of requiredFields(preset.context)) expect(preset.context[field]!.type).toBe('string');
  });

  test('checks exactly its required fields on emit', () => {
    const event = preset.events[0]!.name;
    const full = Object.fromEntries(requiredFields(preset.context).map((field) => [field, 'x']));
    expect(() => checkContext(event, full, preset)).not.toThrow();
    for (const field of requiredFields(preset.context)) {
      const { [field]: _, ...lacking } = full;
      expect(() => checkContext(event, lacking, preset)).toThrow(InvalidContextError);
      expect(() => checkContext(event, { ...full, [field]: '' }, preset)).toThrow(new RegExp(`lacks "${field}"`));
    }
  });

  test('gives command-line defaults only for text fields', () => {
    for (const field of Object.values(preset.context))
      if (field.cliDefault !== undefined) expect(field.type).toBe('string');
  });
});

test('the task attempt is text (`<task>-<n>`), the arc attempt a count', () => {
  expect(builtInPresets.get('task')!.context['attempt']!.type).toBe('string');
  expect(builtInPresets.get('arc')!.context['attempt']!.type).toBe('integer');
  expect(builtInPresets.get('agent')!.context['tool_input']!.type).toBe('object');
});

test('the session-ending events are in their catalogs', () => {
  const ending = Object.fromEntries(
    builtInPresets.all.map((preset) => [
      preset.name,
      preset.events.filter((event) => event.endsSession === true).map((event) => event.name),
    ]),
  );
  expect(ending).toEqual({
    arc: ['run_complete', 'run_failed'],
    agent: ['session_stop'],
    claude: ['SessionEnd'],
    codex: ['SessionEnd'],
    copilot: ['sessionEnd'],
    cursor: ['sessionEnd'],
    gemini: ['SessionEnd'],
    task: [],
    windsurf: [],
  });
});
