import * as v from 'valibot';

/** `[sandbox]`'s `provider`: which sandbox runs sandboxed hooks. */
export const SANDBOX_PROVIDER = v.optional(
  v.pipe(
    v.string(),
    v.nonEmpty(),
    v.description('"local" (default), "bubblewrap", "docker", or a plugin\'s provider.'),
  ),
);

/** `plugins`: third-party packages, each named by a non-empty string. */
export const PLUGINS = v.optional(
  v.pipe(
    v.array(v.pipe(v.string(), v.nonEmpty())),
    v.description("Third-party runner packages, resolved from the config file's folder."),
  ),
);

/** The top-level keys Hookline reads; the form of `hooks` is the preset's dialect's. */
export const TOP_LEVEL_KEYS: readonly string[] = ['preset', 'plugins', 'sandbox', 'hooks'];

/** `preset`: one of the known presets' names. */
export function presetKey(names: readonly string[], fallback: string): v.GenericSchema {
  const listed = names.map((name) => (name === fallback ? `"${name}" (default)` : `"${name}"`));
  return v.optional(
    v.pipe(
      v.picklist(names),
      v.description(`Event catalog and dialect: ${listed.slice(0, -1).join(', ')} or ${listed.at(-1)!}.`),
    ),
  );
}
