import type { HookDefinition } from '@hookline/core';

/** `hookline.toml:12`: where a hook in force was written. */
export function formatSource(hook: HookDefinition): string {
  return `${hook.source.file}:${hook.source.line}`;
}
