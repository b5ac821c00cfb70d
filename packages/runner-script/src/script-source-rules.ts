import type { KeyRule } from '@hookline/core/plugin';
import * as v from 'valibot';

/**
 * A script hook runs exactly one of `script` (inline) and `file`. As rules rather than a check, the
 * config's JSON Schema states them as `if`/`then` and editors flag them as the loader does.
 */
export const scriptSourceRules: readonly KeyRule[] = [
  {
    // `v.optional(v.never())`: the key is absent.
    when: { script: v.optional(v.never()) },
    then: { file: v.string() },
    key: 'script',
    message:
      'a script hook needs `script` (inline JavaScript) or `file` (the path of a JavaScript file); add one of them',
  },
  {
    when: { script: v.string() },
    then: { file: v.optional(v.never()) },
    key: 'file',
    message:
      '`script` and `file` are both set; keep one: `script` for inline JavaScript, `file` for a path to a JavaScript file',
  },
];
