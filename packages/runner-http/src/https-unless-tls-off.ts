import type { KeyRule } from '@hookline/core/plugin';
import * as v from 'valibot';

/**
 * An `http://` url needs tls = "off". A rule, not a check, so the config's JSON Schema
 * states it as if/then and editors flag it as the loader does. The pattern reads the scheme as the
 * URL parser does: case-insensitive, after leading spaces and control characters.
 */
export const httpsUnlessTlsOff: KeyRule = {
  when: { tls: v.optional(v.picklist(['verify', 'no_verify'])) },
  then: { url: v.pipe(v.string(), v.regex(/^(?![\u0000-\u0020]*[Hh][Tt][Tt][Pp]:)/)) },
  key: 'url',
  message: (options) => {
    const tls = typeof options['tls'] === 'string' ? options['tls'] : 'verify';
    return `\`url\` is http:// but tls = "${tls}" requires https://; use an https:// URL, or set tls = "off" to send the context unencrypted`;
  },
};
