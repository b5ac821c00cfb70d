/**
 * The `.claude/settings.json` that `hookline init --preset claude` writes: one guard hook, in the
 * shape Claude Code's settings use, that refuses a Bash tool call deleting recursively from the
 * filesystem's root or the home folder (exit 2: the reason on stderr blocks the call). JSON has no
 * comments, so the explanation is printed by `init` and lives in the guide; the guard reads its
 * input with grep alone, so it needs neither jq nor Python.
 */
export function claudeStarter(): string {
  const guard = [
    'input=$(cat)',
    `if printf '%s' "$input" | grep -Eq '"command"[[:space:]]*:[[:space:]]*"[^"]*rm[[:space:]]+-[A-Za-z]*[rR][A-Za-z]*[[:space:]]+(/|~|\\$HOME)([[:space:]"/*]|$)'; then`,
    "  echo 'refusing a recursive delete of / or the home folder' >&2",
    '  exit 2',
    'fi',
  ].join('\n');
  const settings = {
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard, timeout: 10, on_error: 'block' }] }],
    },
  };
  return `${JSON.stringify(settings, null, 2)}\n`;
}
