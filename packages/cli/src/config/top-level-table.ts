import type { ConfigSource } from '@hookline/core';

/**
 * A top-level table of the config files merged key by key, later files over earlier ones — e.g.
 * `[models]`. A value that is not a table is skipped here; the runner's own checks report what a
 * bad entry means for its hooks.
 */
export function topLevelTable(sources: readonly ConfigSource[], name: string): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const source of sources) {
    const table = source.data[name];
    if (typeof table === 'object' && table !== null && !Array.isArray(table)) Object.assign(merged, table);
  }
  return merged;
}
