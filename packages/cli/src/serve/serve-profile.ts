import type { ServeRoute } from '@hookline/serve';

/**
 * Which config a route reads, as the daemon's profile string: an agent's calls read the config as
 * `hookline bridge` does (guards fail closed), plain emits as `hookline emit` does; either may name
 * a preset (`?preset=claude`: Claude Code's own settings files). `bridge:` / `emit:` then the preset.
 */
export interface ServeProfile {
  readonly kind: 'bridge' | 'emit';
  readonly preset: string | undefined;
}

export function profileOf(route: ServeRoute): string {
  return `${route.kind === 'bridge' ? 'bridge' : 'emit'}:${route.preset ?? ''}`;
}

export function readProfile(profile: string): ServeProfile {
  const [kind, preset = ''] = profile.split(':');
  return { kind: kind === 'bridge' ? 'bridge' : 'emit', preset: preset === '' ? undefined : preset };
}
