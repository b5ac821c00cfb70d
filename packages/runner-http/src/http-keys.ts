import type { HookOptions } from '@hookline/core/plugin';
import * as v from 'valibot';
import { retryKey } from './retry-keys.ts';
import { endpointKey } from './endpoint-keys.ts';

/** TLS modes: `verify` checks certificates, `no_verify` does not, `off` allows `http://`. */
export const TLS_MODES = ['verify', 'no_verify', 'off'] as const;

/** One of {@link TLS_MODES}. */
export type TlsMode = (typeof TLS_MODES)[number];

/** The valibot object schema of an HTTP hook's own keys; the core merges them with the common hook keys. */
export const httpOptions = v.object({
  url: v.pipe(
    v.string('must be a string holding an https:// URL'),
    v.nonEmpty('must not be empty'),
    v.description('The endpoint the event context is POSTed to. https:// unless tls = "off".'),
  ),
  headers: v.optional(
    v.pipe(
      v.record(
        v.string(),
        v.string('must be a string (header values are text)'),
        'must be a table of header names to string values',
      ),
      v.description('Extra request headers. Values may use $VAR or ${VAR} for variables listed in allowed_env_vars.'),
    ),
  ),
  allowed_env_vars: v.optional(
    v.pipe(
      v.array(
        v.string('must be a string naming an environment variable'),
        'must be a list of environment variable names',
      ),
      v.description('Environment variables that header values may interpolate; any other $VAR is a load error.'),
    ),
  ),
  tls: v.optional(
    v.pipe(
      v.picklist(TLS_MODES, 'must be "verify", "no_verify" or "off"'),
      v.description(
        '"verify" (default): https with certificate checks; "no_verify": https without them; "off": http:// allowed.',
      ),
    ),
  ),
  signing_secret_env: v.optional(
    v.pipe(
      v.string('must be a string naming an environment variable'),
      v.description(
        'Sign each delivery per the Standard Webhooks spec with the whsec_… secret in this environment variable.',
      ),
    ),
  ),
  retry: retryKey,
  endpoint: endpointKey,
  block_private_addresses: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description(
        'Refuse loopback, private, link-local, CGNAT, unique-local and cloud-metadata addresses, checked on every DNS answer.',
      ),
    ),
  ),
});

/** The keys of a `type = "http"` hook as its runner receives them, validated. */
export type HttpHookOptions = HookOptions<typeof httpOptions>;
