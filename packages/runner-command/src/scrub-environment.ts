/**
 * Suffixes of variable names the local sandbox withholds (SPEC §7), compared case-insensitively:
 * the conventional names of credentials a hook should not see unless it runs with `sandbox = false`.
 */
export const SECRET_SUFFIXES: readonly string[] = ['_API_KEY', '_SECRET', '_TOKEN', '_PASSWORD', '_CREDENTIAL'];

/** Whether a variable name looks like a credential by the {@link SECRET_SUFFIXES} rule. */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_SUFFIXES.some((suffix) => upper.endsWith(suffix));
}

/** A copy of `environment` without credential-looking names and without unset (undefined) entries. */
export function scrubEnvironment(environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && !isSecretName(name)) kept[name] = value;
  }
  return kept;
}

/** A copy of `environment` without unset (undefined) entries: what `sandbox = false` hands a hook. */
export function fullEnvironment(environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}
