/**
 * A matcher source that matches exactly `value` and nothing longer: `Bash` → `^Bash$`, so a hook for
 * `Bash` does not fire for `BashOutput`. Regex syntax in `value` is escaped.
 */
export function exactMatcher(value: string): string {
  return `^${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
}
