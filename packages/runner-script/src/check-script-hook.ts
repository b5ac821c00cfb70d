import type { HookKeyProblem } from '@hookline/core';
import { describeSyntaxPosition, findSyntaxError } from './find-syntax-error.ts';
import type { ScriptHookOptions } from './script-keys.ts';

/**
 * Load-time checks of a script hook: exactly one of `script` and `file`, and an inline `script` that
 * parses. The parse runs none of the script, so it is safe at load; a `file` is read and parsed when
 * the hook first runs, because this check gets neither the config's folder nor a way to do I/O.
 */
export function checkScriptHook(options: ScriptHookOptions): HookKeyProblem[] {
  if (options.script === undefined && options.file === undefined) {
    return [{ key: 'script', message: 'a script hook needs `script` (inline JavaScript) or `file` (the path of a JavaScript file); add one of them' }];
  }
  if (options.script !== undefined && options.file !== undefined) {
    return [{ key: 'file', message: '`script` and `file` are both set; keep one: `script` for inline JavaScript, `file` for a path to a JavaScript file' }];
  }
  if (options.script === undefined) return [];
  const error = findSyntaxError(options.script);
  return error === undefined ? [] : [{ key: 'script', message: `syntax error in \`script\`: ${error.message}${describeSyntaxPosition(error)}` }];
}
