/** `value` with every character that has a meaning in a regular expression escaped (RE2 and JavaScript alike). */
export function escapePattern(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * A matcher source that matches exactly `value` and nothing longer: `Bash` → `^Bash$`, so a hook for
 * `Bash` does not fire for `BashOutput`. Regex syntax in `value` is escaped.
 */
export function exactMatcher(value: string): string {
  return `^${escapePattern(value)}$`;
}
