/**
 * A Claude Code `matcher` as a Hookline matcher source. Claude Code reads it three ways: `*`, `""` or
 * no matcher at all matches everything (`undefined` here: the hook has no matcher); a string of
 * only letters, digits, `_` and `|` is a list of exact names (`Edit|Write` matches `Edit` and
 * `Write`, never `NotebookEdit`), anchored here as `^(?:Edit|Write)$`; anything else is a regular
 * expression tried unanchored (`mcp__memory__.*`, `Notebook.*`).
 */
export function claudeMatcher(matcher: string | undefined): string | undefined {
  if (matcher === undefined) return undefined;
  const trimmed = matcher.trim();
  if (trimmed === '' || trimmed === '*') return undefined;
  if (/^[A-Za-z0-9_|]+$/.test(trimmed)) {
    const names = trimmed.split('|').filter((name) => name !== '');
    return names.length === 0 ? undefined : `^(?:${names.join('|')})$`;
  }
  return trimmed;
}
