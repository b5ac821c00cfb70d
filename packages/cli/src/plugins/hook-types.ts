import type { ConfigSource } from '@hookline/core';
import { FIRST_PARTY_RUNNERS } from './first-party-packages.ts';

/**
 * The hook types the raw (unvalidated) sources use — `type`, or `command` meaning a command hook —
 * so that only their runners are imported. When a file's hooks are not in the `[[hooks]]` form this
 * scan understands, every first-party type is returned: loading too much beats a false error.
 */
export function hookTypesIn(sources: readonly ConfigSource[]): Set<string> {
  const types = new Set<string>();
  for (const source of sources) {
    const hooks = source.data['hooks'];
    if (hooks === undefined) continue;
    if (!Array.isArray(hooks)) return new Set(Object.keys(FIRST_PARTY_RUNNERS));
    for (const hook of hooks) {
      if (typeof hook !== 'object' || hook === null) continue;
      const table = hook as Record<string, unknown>;
      if (typeof table['type'] === 'string') types.add(table['type']);
      else if (table['command'] !== undefined) types.add('command');
    }
  }
  return types;
}
