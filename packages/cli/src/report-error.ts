import type { CliIo } from './cli-io.ts';
import { createStyle } from './output/style.ts';
import { terminalText } from './output/terminal-text.ts';

/**
 * Prints an error to stderr and returns the exit code (1). Config problems are listed one per line
 * as `file:line: message — fix`; other Hookline errors are one sentence that says what to do; an
 * unexpected error prints its stack, since it is a bug.
 */
export async function reportError(error: unknown, io: CliIo): Promise<number> {
  const style = createStyle(io.stderr, io.env);
  const label = style.paint(['red', 'bold'], 'hookline:');
  // Imported here, on the error path only; isInstance recognises errors of another copy of core.
  const { ConfigError, formatConfigIssue, HooklineError } = await import('@hookline/core');
  if (ConfigError.isInstance(error)) {
    const { issues } = error;
    io.stderr.write(
      `${label} the configuration has ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}; nothing was run:\n`,
    );
    for (const issue of issues) io.stderr.write(`  ${terminalText(formatConfigIssue(issue))}\n`);
    io.stderr.write('Fix them and run again; `hookline validate` checks a config without running anything.\n');
    return 1;
  }
  if (HooklineError.isInstance(error)) {
    io.stderr.write(`${label} ${terminalText(error.message)}\n`);
    return 1;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(
    `${label} unexpected error — this is a bug in Hookline or a plugin, please report it:\n${terminalText(detail, 'block')}\n`,
  );
  return 1;
}
