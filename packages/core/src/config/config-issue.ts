/** One problem found while loading configuration. Loading collects them all before failing. */
export interface ConfigIssue {
  readonly file: string;
  /** 1-based; absent when the problem has no single line (e.g. an unreadable file). */
  readonly line?: number;
  /** The hook's index in its file and its effective name, for hook problems. */
  readonly hook?: { readonly index: number; readonly name: string };
  /** What is wrong. */
  readonly message: string;
  /** How to fix it. */
  readonly fix?: string;
}

/** `file:line: hooks[2] "pre-check": message — fix`: the form `hookline validate` prints. */
export function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  const hook = issue.hook === undefined ? '' : ` hooks[${issue.hook.index}] "${issue.hook.name}":`;
  const fix = issue.fix === undefined ? '' : ` — ${issue.fix}`;
  return `${where}:${hook} ${issue.message}${fix}`;
}
