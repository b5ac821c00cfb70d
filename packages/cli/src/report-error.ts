import type { CliIo } from './cli-io.ts';
import { createStyle } from './output/style.ts';
import { terminalText } from './output/terminal-text.ts';

// Recognised by shape rather than instanceof: HooklineError's Symbol.for marker and `code` survive
// duplicate installs of @hookline/core, and this file stays free of imports on the startup path.
const MARKER = Symbol.for('hookline.error');

interface IssueLike {
  readonly file: string;
  readonly line?: number;
  readonly hook?: { readonly index: number; readonly name: string };
  readonly message: string;
  readonly fix?: string;
}

/**
 * Prints an error to stderr and returns the exit code (1). Config problems are listed one per line
 * as `file:line: message — fix`; other Hookline errors are one sentence that says what to do; an
 * unexpected error prints its stack, since it is a bug.
 */
export function reportError(error: unknown, io: CliIo): number {
  const style = createStyle(io.stderr, io.env);
  const label = style.paint(['red', 'bold'], 'hookline:');
  const known = typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  if (known && (error as { code?: unknown }).code === 'HOOKLINE_CONFIG_INVALID') {
    const issues = (error as { issues: readonly IssueLike[] }).issues;
    io.stderr.write(`${label} the configuration has ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}; nothing was run:\n`);
    for (const issue of issues) io.stderr.write(`  ${terminalText(formatIssue(issue))}\n`);
    io.stderr.write('Fix them and run again; `hookline validate` checks a config without running anything.\n');
    return 1;
  }
  if (known) {
    io.stderr.write(`${label} ${terminalText((error as Error).message)}\n`);
    return 1;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`${label} unexpected error — this is a bug in Hookline or a plugin, please report it:\n${terminalText(detail, 'block')}\n`);
  return 1;
}

// The same shape as core's formatConfigIssue, kept here so reporting needs no import.
function formatIssue(issue: IssueLike): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  const hook = issue.hook === undefined ? '' : ` hooks[${issue.hook.index}] "${issue.hook.name}":`;
  return `${where}:${hook} ${issue.message}${issue.fix === undefined ? '' : ` — ${issue.fix}`}`;
}
