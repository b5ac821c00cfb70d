import { replaceEnvReferences } from './env-references.ts';
import { FORBIDDEN_VALUE_CHARACTERS } from './header-rules.ts';

/** The headers to send, what to tell the user, and the values no report may show. */
export type InterpolatedHeaders =
  | {
      readonly ok: true;
      readonly headers: Record<string, string>;
      readonly warnings: readonly string[];
      /** Every non-empty value read from the environment, for redaction. */
      readonly secrets: readonly string[];
    }
  | { readonly ok: false; readonly error: string; readonly secrets: readonly string[] };

/**
 * Replaces `$VAR` and `${VAR}` in header values with environment values, for listed names only
 * (load-time checks refuse the others; an unlisted one met here is left as written). A listed but
 * unset variable becomes empty, with a warning. The environment is read now, at run time, so a
 * rotated token is picked up without reloading the config.
 */
export function interpolateHeaders(
  headers: Readonly<Record<string, string>>,
  allowed: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): InterpolatedHeaders {
  const result: Record<string, string> = {};
  const warnings: string[] = [];
  const secrets = new Set<string>();
  const unset = new Set<string>();
  for (const [name, template] of Object.entries(headers)) {
    const value = replaceEnvReferences(template, (variable, written) => {
      if (!allowed.includes(variable)) return written;
      const found = environment[variable];
      if (found === undefined) {
        if (!unset.has(`${name}\0${variable}`))
          warnings.push(
            `header \`${name}\`: ${variable} is listed in allowed_env_vars but not set; it was sent as empty`,
          );
        unset.add(`${name}\0${variable}`);
        return '';
      }
      if (found !== '') secrets.add(found);
      return found;
    });
    if (FORBIDDEN_VALUE_CHARACTERS.test(value)) {
      // Say which variable, never what it holds.
      return {
        ok: false,
        error: `header \`${name}\` would contain a line break or NUL after interpolating its environment variables; fix the variable's value`,
        secrets: [...secrets],
      };
    }
    result[name] = value;
  }
  return { ok: true, headers: result, warnings, secrets: [...secrets] };
}
