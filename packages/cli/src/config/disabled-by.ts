import type { HookDefinition, SourceLocation } from '@hookline/core';

/**
 * Where a disabled hook was switched off: the later source's `name` + `enabled = false` (core's
 * `disabledAt`), else the definition that says `enabled = false` itself.
 */
export function disabledBy(hook: HookDefinition): SourceLocation | undefined {
  if (hook.enabled) return undefined;
  return hook.disabledAt ?? { file: hook.source.file, line: hook.source.line };
}
