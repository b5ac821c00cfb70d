import type { HookKeyProblem } from '@hookline/core/plugin';
import type { NtfyHookOptions } from './ntfy-keys.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Notifications can carry workflow details, so they go over https — except to a server on this
 * machine (a self-hosted ntfy behind a local proxy, or a test server).
 */
export function checkServer({ server }: NtfyHookOptions): HookKeyProblem[] {
  if (server === undefined || !URL.canParse(server)) return [];
  const url = new URL(server);
  if (url.protocol === 'https:') return [];
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return [];
  return [{ key: 'server', message: `must be an https:// URL (http:// only for localhost), got "${server}"` }];
}
