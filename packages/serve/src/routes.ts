import type { ServeRoute } from './serve-backend.ts';

/** A request path the daemon knows. */
export type ParsedPath =
  | { readonly kind: 'hook'; readonly route: ServeRoute; readonly cwd: string | undefined }
  | { readonly kind: 'status' }
  | { readonly kind: 'health' };

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The route of a request path: `/hooks/<agent>/<event>` or `/hooks/<agent>` (the event read from the payload) (an agent's hook, answered as `hookline
 * bridge <agent>` would), `/emit/<event>?preset=…&cwd=…` (an event of any preset, answered with the
 * outcome JSON), `/status`, `/health`. Anything else is undefined (404).
 */
export function parsePath(url: string): ParsedPath | undefined {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const params = new URLSearchParams(query < 0 ? '' : url.slice(query + 1));
  const parts = path.split('/').filter((part) => part !== '');
  const cwd = params.get('cwd') ?? undefined;
  const preset = params.get('preset') ?? undefined;
  const withPreset = preset === undefined || !NAME.test(preset) ? {} : { preset };
  // `/hooks/<agent>` takes the event from the payload (the shim's form: one entry for every event).
  if (
    (parts.length === 3 || parts.length === 2) &&
    parts[0] === 'hooks' &&
    parts.slice(1).every((part) => NAME.test(part))
  ) {
    return { kind: 'hook', route: { kind: 'bridge', agent: parts[1]!, event: parts[2] ?? '', ...withPreset }, cwd };
  }
  if (parts.length === 2 && parts[0] === 'emit' && NAME.test(parts[1]!)) {
    const route: ServeRoute = { kind: 'emit', event: parts[1]!, ...withPreset };
    return { kind: 'hook', route, cwd };
  }
  if (parts.length === 1 && parts[0] === 'status') return { kind: 'status' };
  if (parts.length === 1 && parts[0] === 'health') return { kind: 'health' };
  return undefined;
}
