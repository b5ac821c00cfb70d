import type { HookKeyProblem } from '@hookline/core/plugin';
import { describeSyntaxPosition, findSyntaxError } from './find-syntax-error.ts';
import type { ScriptHookOptions } from './script-keys.ts';

/**
 * Load-time check of a script hook that JSON Schema cannot state: an inline `script` parses (that
 * there is exactly one of `script` and `file` is `scriptSourceRules`'). The parse runs none of the
 * script, so it is safe at load; a `file` is read and parsed when the hook first runs, because this
 * check gets neither the config's folder nor a way to do I/O.
 */
export function checkScriptHook(options: ScriptHookOptions): HookKeyProblem[] {
  // With `file` too, the rules have refused the hook already.
  if (options.script === undefined || options.file !== undefined) return [];
  const error = findSyntaxError(options.script);
  return error === undefined
    ? []
    : [{ key: 'script', message: `syntax error in \`script\`: ${error.message}${describeSyntaxPosition(error)}` }];
}
