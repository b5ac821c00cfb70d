/** A copy of `environment` without unset (undefined) entries: what `sandbox = false` hands a hook. */
export function fullEnvironment(environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/**
 * The variables of `environment` a hook's `env_passthrough` names, set ones only: the explicit way
 * past a sandbox's allow-list.
 */
export function passedThrough(
  environment: Readonly<Record<string, string | undefined>>,
  names: readonly string[] | undefined,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names ?? []) {
    const value = environment[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}
