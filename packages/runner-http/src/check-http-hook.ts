import type { HookKeyProblem } from '@hookline/core/plugin';
import { ENV_NAME, findEnvReferences } from './env-references.ts';
import { FORBIDDEN_VALUE_CHARACTERS, headerNameProblem } from './header-rules.ts';
import type { HttpHookOptions } from './http-keys.ts';

/**
 * Load-time checks across an HTTP hook's keys that JSON Schema cannot state: a
 * header that references a variable not in `allowed_env_vars`, and the other mistakes that would
 * otherwise only surface when the hook first runs. Each problem names its key so the error points at
 * its line.
 */
export function checkHttpHook(options: HttpHookOptions): HookKeyProblem[] {
  const problems: HookKeyProblem[] = [];

  let url: URL | undefined;
  try {
    url = new URL(options.url);
  } catch {
    problems.push({
      key: 'url',
      message: `\`url\` ${JSON.stringify(options.url)} is not a valid absolute URL; write it as https://host/path`,
    });
  }
  if (url !== undefined) {
    // http:// with TLS on is the rule `httpsUnlessTlsOff`, which the JSON Schema states too.
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      problems.push({ key: 'url', message: `\`url\` must be an http(s) URL, not ${url.protocol}//…` });
    }
    if (url.username !== '' || url.password !== '') {
      problems.push({
        key: 'url',
        message:
          '`url` carries credentials (user:password@), which would appear in hook names and reports; send them in a header read from allowed_env_vars instead',
      });
    }
  }

  const allowed = options.allowed_env_vars ?? [];
  for (const name of allowed) {
    if (!ENV_NAME.test(name))
      problems.push({
        key: 'allowed_env_vars',
        message: `allowed_env_vars entry ${JSON.stringify(name)} is not a valid variable name (letters, digits, _; not starting with a digit)`,
      });
  }

  const signing = options.signing_secret_env !== undefined;
  if (signing) {
    const name = options.signing_secret_env;
    // The value is never quoted: a user who pasted the secret itself here must not see it in logs.
    if (name.startsWith('whsec_')) {
      problems.push({
        key: 'signing_secret_env',
        message:
          "signing_secret_env holds what looks like the secret itself; put the secret in an environment variable and write that variable's name here (then rotate the secret: it was in a config file)",
      });
    } else if (!ENV_NAME.test(name)) {
      problems.push({
        key: 'signing_secret_env',
        message:
          'signing_secret_env must name an environment variable (letters, digits and _, not starting with a digit); the secret itself never goes in the config',
      });
    }
  }

  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const nameProblem = headerNameProblem(name, signing);
    if (nameProblem !== undefined) problems.push({ key: 'headers', message: nameProblem });
    const earlier = seen.get(name.toLowerCase());
    if (earlier !== undefined)
      problems.push({
        key: 'headers',
        message: `headers \`${earlier}\` and \`${name}\` are the same header (names are case-insensitive); keep one`,
      });
    seen.set(name.toLowerCase(), name);
    if (FORBIDDEN_VALUE_CHARACTERS.test(value))
      problems.push({
        key: 'headers',
        message: `header \`${name}\` contains a line break or NUL, which cannot be sent`,
      });
    for (const reference of findEnvReferences(value)) {
      if (allowed.includes(reference.name)) continue;
      problems.push({
        key: 'headers',
        message: `header \`${name}\` references ${reference.text}, but ${reference.name} is not listed in allowed_env_vars; add allowed_env_vars = [${[...allowed, reference.name].map((item) => JSON.stringify(item)).join(', ')}] (only listed variables are read from the environment)`,
      });
    }
  }
  return problems;
}
