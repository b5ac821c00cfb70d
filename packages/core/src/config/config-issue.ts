/**
 * One problem found while loading configuration, or in the settings handed to a plugin's factory.
 * Loading collects them all before failing. It is the one issue type of Hookline: a plugin that
 * refuses its settings reports them as these too (in a `ConfigError` subclass), naming the table.
 */
export interface ConfigIssue {
  /** The file, or for settings handed to a factory in code, the factory (`dockerSandbox()`). */
  readonly file: string;
  /** 1-based; absent when the problem has no single line (e.g. an unreadable file). */
  readonly line?: number;
  /**
   * The hook's index in its file and its effective name, for hook problems; `path` says where a
   * dialect wrote it when `hooks[index]` would not find it (`hooks.after_merge[1]`).
   */
  readonly hook?: { readonly index: number; readonly name: string; readonly path?: string };
  /**
   * For a problem in a plugin's settings table: the table, dotted (`sandbox.docker`), and the key
   * under it (`memory`, `mounts[1]`; empty for the table itself).
   */
  readonly setting?: { readonly table: string; readonly key: string };
  /** What is wrong. */
  readonly message: string;
  /** How to fix it. */
  readonly fix?: string;
}

/**
 * `file:line: hooks[2] "pre-check": message — fix`, or `file:line: [sandbox.docker] memory: message`
 * for a setting: the form `hookline validate` prints.
 */
export function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  const hook =
    issue.hook === undefined ? '' : ` ${issue.hook.path ?? `hooks[${issue.hook.index}]`} "${issue.hook.name}":`;
  const setting =
    issue.setting === undefined
      ? ''
      : ` [${issue.setting.table}]${issue.setting.key === '' ? '' : ` ${issue.setting.key}`}:`;
  const fix = issue.fix === undefined ? '' : ` — ${issue.fix}`;
  return `${where}:${hook}${setting} ${issue.message}${fix}`;
}
