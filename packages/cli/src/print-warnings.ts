import type { CliIo } from './cli-io.ts';
import type { Setup } from './config/load-setup.ts';
import { createStyle } from './output/style.ts';
import { terminalText } from './output/terminal-text.ts';

/** Writes warnings to stderr, one `hookline: warning:` line each; stdout stays machine-clean. */
export function printWarnings(warnings: readonly string[], io: CliIo): void {
  if (warnings.length === 0) return;
  const style = createStyle(io.stderr, io.env);
  for (const warning of warnings)
    io.stderr.write(`${style.paint('yellow', 'hookline: warning:')} ${terminalText(warning)}\n`);
}

/** The warning for a command that found no config file to load. */
export function noConfigWarning(searched: readonly string[]): string {
  return `no config file found (looked for ${listOf(searched)}); nothing is configured — \`hookline init\` writes a starter hookline.toml`;
}

/** `a`, `a and b`, `a, b and c`. */
export function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/** The warnings of a loaded setup (no config found, the loader's own), then `extra`, to stderr. */
export function printSetupWarnings(setup: Setup, io: CliIo, extra: readonly string[] = []): void {
  printWarnings(
    [...(setup.files.length === 0 ? [noConfigWarning(setup.searched)] : []), ...setup.config.warnings, ...extra],
    io,
  );
}
