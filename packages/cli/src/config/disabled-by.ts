import type { ConfigSource, HookDefinition, SourceLocation } from '@hookline/core';

/**
 * Where a disabled hook was switched off. Core keeps the source of the definition in force, which
 * for a later layer's bare `name = "x"` + `enabled = false` is the earlier file; `list` and
 * `explain` name the file and line that actually disabled it.
 */
export function disabledBy(hook: HookDefinition, sources: readonly ConfigSource[]): SourceLocation | undefined {
  if (hook.enabled) return undefined;
  for (const source of [...sources].reverse()) {
    const hooks = source.data['hooks'];
    if (!Array.isArray(hooks)) continue;
    for (let index = hooks.length - 1; index >= 0; index--) {
      const table = hooks[index] as Record<string, unknown> | undefined;
      if (table?.['name'] === hook.name && table['enabled'] === false) return { file: source.file, line: source.lines.hook(index) ?? 1 };
    }
  }
  return { file: hook.source.file, line: hook.source.line };
}
