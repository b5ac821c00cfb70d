import type { CliIo } from './cli-io.ts';
import { createStyle } from './output/style.ts';

/** Writes warnings to stderr, one `hookline: warning:` line each; stdout stays machine-clean. */
export function printWarnings(warnings: readonly string[], io: CliIo): void {
  if (warnings.length === 0) return;
  const style = createStyle(io.stderr, io.env);
  for (const warning of warnings) io.stderr.write(`${style.paint('yellow', 'hookline: warning:')} ${warning}\n`);
}

/** The warning for a command that found no config file to load. */
export function noConfigWarning(searched: readonly string[]): string {
  return `no config file found (looked for ${searched.join(' and ')}); nothing is configured — \`hookline init\` writes a starter hookline.toml`;
}
