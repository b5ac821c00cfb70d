import { builtInPresets } from '@hookline/core';
import { expect, test } from 'vitest';
import { read } from './doc-files.ts';

// Each preset guide's "Context" table lists the fields of the preset's context schema, with the same
// types and the same required ones, so the guide and the schema `hookline emit --set` reads by agree.
test.each(['arc', 'task', 'agent'])('docs/preset-%s.md documents the context schema of its preset', (name) => {
  const page = read(`preset-${name}.md`);
  const section = page.slice(page.indexOf('\n## Context'), page.indexOf('\n## ', page.indexOf('\n## Context') + 1));
  const documented: Record<string, { type: string; required: boolean }> = {};
  for (const row of section.matchAll(/^\| (`[^|]+`) \| (\w+) \| ([^\n]*)\|$/gm)) {
    for (const field of row[1]!.matchAll(/`(\w+)`/g))
      documented[field[1]!] = { type: row[2]!, required: row[3]!.includes('**required**') };
  }
  delete documented['event'];
  const schema = Object.fromEntries(
    Object.entries(builtInPresets.get(name)!.context).map(([field, spec]) => [
      field,
      { type: spec.type, required: spec.required === true },
    ]),
  );
  expect(documented).toEqual(schema);
});
