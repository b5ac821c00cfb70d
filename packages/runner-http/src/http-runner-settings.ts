import { InvalidOptionError } from '@hookline/core/plugin';
import type { LookupFunction } from './guarded-lookup.ts';

/** Options of `httpRunner()`: pool sizes and limits shared by every HTTP hook the runner runs. */
export interface HttpRunnerSettings {
  /** Largest response body read, in bytes; the rest is not read and the report says so. Default 1 MiB. */
  readonly maxResponseBytes?: number;
  /** Open connections per origin and TLS mode; more requests wait for one. Default 32. */
  readonly connectionsPerOrigin?: number;
  /** How long an idle keep-alive connection stays open, in ms. Default 4 000 (below common server idle timeouts). */
  readonly keepAliveTimeoutMs?: number;
  /** How long establishing a connection (TCP + TLS) may take, in ms. Default 10 000; the hook's deadline still applies. */
  readonly connectTimeoutMs?: number;
  /**
   * The DNS lookup used when `block_private_addresses = true` (default `node:dns` `lookup`). Its answers
   * still pass the private-address filter; hosts with a split-horizon resolver can plug theirs in.
   */
  readonly lookup?: LookupFunction;
  /** The `user-agent` header sent unless a hook sets its own. Default `hookline-runner-http`. */
  readonly userAgent?: string;
}

/** The settings with every default filled in. */
export interface ResolvedHttpRunnerSettings extends Required<Omit<HttpRunnerSettings, 'lookup'>> {
  readonly lookup?: LookupFunction;
}

/** One mebibyte: command hooks' output cap, applied to response bodies as well. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Fills in the defaults and rejects nonsense early (a programming error, so it throws). */
export function resolveHttpRunnerSettings(settings: HttpRunnerSettings = {}): ResolvedHttpRunnerSettings {
  const resolved = {
    maxResponseBytes: settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    connectionsPerOrigin: settings.connectionsPerOrigin ?? 32,
    keepAliveTimeoutMs: settings.keepAliveTimeoutMs ?? 4_000,
    connectTimeoutMs: settings.connectTimeoutMs ?? 10_000,
    userAgent: settings.userAgent ?? 'hookline-runner-http',
    ...(settings.lookup === undefined ? {} : { lookup: settings.lookup }),
  };
  for (const key of ['maxResponseBytes', 'connectionsPerOrigin', 'keepAliveTimeoutMs', 'connectTimeoutMs'] as const) {
    if (!Number.isInteger(resolved[key]) || resolved[key] < 1)
      throw new InvalidOptionError(
        'httpRunner',
        key,
        `${key} must be a positive integer, got ${String(resolved[key])}`,
      );
  }
  return resolved;
}
