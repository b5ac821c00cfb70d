/** One problem found while loading configuration. Loading collects them all before failing. */
export interface ConfigIssue {
  readonly file: string;
  /** 1-based; absent when the problem has no single line (e.g. an unreadable file). */
  readonly line?: number;
  /**
   * The hook's index in its file and its effective name, for hook problems; `path` says where a
   * dialect wrote it when `hooks[index]` would not find it (`hooks.after_merge[1]`).
   */
  readonly hook?: { readonly index: number; readonly name: string; readonly path?: string };
  /** What is wrong. */
  readonly message: string;
  /** How to fix it. */
  readonly fix?: string;
}

/** `file:line: hooks[2] "pre-check": message — fix`: the form `hookline validate` prints. */
export function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  const hook = issue.hook === undefined ? '' : ` ${issue.hook.path ?? `hooks[${issue.hook.index}]`} "${issue.hook.name}":`;
  const fix = issue.fix === undefined ? '' : ` — ${issue.fix}`;
  return `${where}:${hook} ${issue.message}${fix}`;
}
